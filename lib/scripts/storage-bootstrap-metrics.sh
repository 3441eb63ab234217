# shellcheck shell=bash
# storage-bootstrap, the server's own metrics: the storage-metrics timer and the CloudWatch agent, when metrics are on.
# Part of storage-bootstrap.sh, which reads it from beside itself. The server gets its text, less this opening comment,
# in place of the line that reads it: see lib/script-parts.ts.

# The server's own metrics of lib/server-metrics.ts, when the settings name the cluster and server. storage-metrics runs
# every minute, sending heartbeat, file system and nfsd counters to the CloudWatch agent's StatsD listener, and the
# agent runs with its configuration from the settings document. It never fails the run: the export matters more than its
# metrics, and a server that sends no heartbeat is what the export-down alarm reports.
metrics() {
  local unit=/etc/systemd/system/storage-metrics text changed=0 ctl=/opt/aws/amazon-cloudwatch-agent/bin/amazon-cloudwatch-agent-ctl
  local config=/etc/storage-server/cloudwatch-agent.json applied=/var/lib/storage-server/cloudwatch-agent.sha256
  if [[ -z ${STORAGE_METRICS_CLUSTER:-} ]]; then
    if systemctl is-enabled -q storage-metrics.timer 2>/dev/null; then systemctl disable -q --now storage-metrics.timer || true; fi
    return 0
  fi
  text="[Unit]"$'\n'"Description=StorageServer metrics: heartbeat, file system, nfsd counters to the CloudWatch agent"$'\n'
  text+="[Service]"$'\n'"Type=oneshot"$'\n'"ExecStart=/usr/local/sbin/storage-metrics --cluster $STORAGE_METRICS_CLUSTER"
  text+=" --server $STORAGE_METRICS_SERVER --export $STORAGE_EXPORT_PATH"
  if [[ $(cat "$unit.service" 2>/dev/null) != "$text" ]]; then printf '%s\n' "$text" >"$unit.service" && changed=1; fi
  text="[Unit]"$'\n'"Description=StorageServer metrics every minute"$'\n'"[Timer]"$'\n'"OnActiveSec=10s"$'\n'
  text+="OnUnitActiveSec=60s"$'\n'"AccuracySec=5s"$'\n'"[Install]"$'\n'"WantedBy=timers.target"
  if [[ $(cat "$unit.timer" 2>/dev/null) != "$text" ]]; then printf '%s\n' "$text" >"$unit.timer" && changed=1; fi
  ((changed == 0)) || systemctl daemon-reload
  systemctl is-active -q storage-metrics.timer || systemctl enable -q --now storage-metrics.timer ||
    log "WARNING: cannot start storage-metrics.timer: no heartbeat is sent"
  if [[ ! -x $ctl ]] && command -v dnf >/dev/null; then
    log "installing the CloudWatch agent"
    dnf install -y amazon-cloudwatch-agent || true
  fi
  if [[ ! -x $ctl ]]; then
    log "WARNING: no CloudWatch agent on this server (amazon-cloudwatch-agent): its metrics are not published"
  elif [[ ! -r $config ]]; then
    log "WARNING: $config is missing: the CloudWatch agent is not configured"
  elif [[ $(sha256sum <"$config") != "$(cat "$applied" 2>/dev/null)" ]] || ! systemctl is-active -q amazon-cloudwatch-agent; then
    log "configuring the CloudWatch agent from $config"
    if "$ctl" -a fetch-config -m ec2 -c "file:$config" -s; then
      mkdir -p "${applied%/*}" && sha256sum <"$config" >"$applied"
    else
      log "WARNING: the CloudWatch agent did not take $config: its metrics are not published"
    fi
  fi
}
