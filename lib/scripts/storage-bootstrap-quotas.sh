# shellcheck shell=bash
# storage-bootstrap, XFS quotas: the limits of the settings applied to the mounted data file system, and the ones it
# applied before, now gone from them, cleared. Part of storage-bootstrap.sh, which reads it from beside itself. The
# server gets its text, less this opening comment, in place of the line that reads it: see lib/script-parts.ts.

# Every limit the settings give, set with xfs_quota at each run (setting the same limit again changes nothing), and
# each one this script set before that the settings no longer give set to 0, no limit; limits set by hand on other ids
# are left alone. The applied set is QUOTA_STATE, one type:id a line. XFS turns quotas on only at mount, never by a
# remount, so a file system mounted without them refuses limits, before any is written.
apply_quotas() {
  local mp=$STORAGE_EXPORT_PATH v type qid gib dir opts q cur part key want=() old
  local state=$STATE_DIR/quota-limits
  [[ -n $STORAGE_QUOTA_DEFAULT_USER_GIB$STORAGE_QUOTA_LIMITS || -s $state ]] || return 0
  opts=$(findmnt -no OPTIONS --mountpoint "$mp")
  for q in usrquota grpquota prjquota; do
    [[ ,$opts, == *,$q,* ]] || die "$mp is mounted without $q, and XFS turns quotas on only when it mounts, not by a" \
      "remount: the next reboot (or stop and start) mounts it from fstab with user, group and project quotas, an" \
      "outage of the export while it is down; no quota limit was changed"
  done
  # A project's directory is made when missing; a link or a file on its path is refused, so no limit lands outside.
  for v in $STORAGE_QUOTA_LIMITS; do
    IFS=: read -r type qid gib dir <<<"$v"
    [[ -n $dir ]] || continue
    cur=$mp
    for part in ${dir//\// }; do
      cur+=/$part
      [[ ! -L $cur && (-d $cur || ! -e $cur) ]] ||
        die "project $qid's directory $mp/$dir: $cur is a link or not a directory; no quota limit was changed"
    done
  done
  mkdir -p "$STATE_DIR" && chmod 0700 "$STATE_DIR"
  if [[ -n $STORAGE_QUOTA_DEFAULT_USER_GIB ]]; then
    xfs_quota -x -c "limit -u -d bhard=${STORAGE_QUOTA_DEFAULT_USER_GIB}g" "$mp"
    want+=(user:default)
  fi
  for v in $STORAGE_QUOTA_LIMITS; do
    IFS=: read -r type qid gib dir <<<"$v"
    if [[ -n $dir ]]; then
      [[ -d $mp/$dir ]] || { log "quotas: making project $qid's directory $mp/$dir" && mkdir -p -- "$mp/$dir"; }
      # Setting a tree's project walks all of it: only when the directory is not yet in that project.
      cur=$(xfs_io -c lsproj "$mp/$dir" | sed -n 's/^projid = //p')
      if [[ $cur != "$qid" ]]; then
        log "quotas: $mp/$dir and what it holds put in project $qid"
        xfs_quota -x -c "project -s -p $mp/$dir $qid" "$mp" >/dev/null
      fi
    fi
    xfs_quota -x -c "limit -${type:0:1} bhard=${gib}g $qid" "$mp"
    want+=("$type:$qid")
  done
  if [[ -s $state ]]; then
    while IFS= read -r old; do
      [[ " ${want[*]} " != *" $old "* ]] || continue
      type=${old%%:*} key=${old#*:}
      log "quotas: clearing the $type limit of ${key/default/the default}, gone from the settings"
      if [[ $key == default ]]; then
        xfs_quota -x -c "limit -${type:0:1} -d bhard=0" "$mp"
      else
        xfs_quota -x -c "limit -${type:0:1} bhard=0 $key" "$mp"
      fi
    done <"$state"
  fi
  if ((${#want[@]})); then printf '%s\n' "${want[@]}" >"$state.new"; else : >"$state.new"; fi
  mv -f "$state.new" "$state"
  log "quotas: ${#want[@]} limits applied on $mp"
}
