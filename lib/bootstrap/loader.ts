/**
 * The storage server's user data: a constant loader that carries no setting and no script. It only makes sure the SSM
 * agent that brings the bootstrap runs (docs/design.md, section 10).
 */

/**
 * The constant user data of every server. It carries no setting and no script, so that no change of a setting, and no
 * new version of this library, changes it. CloudFormation applies a user-data change by stopping and starting the
 * instance, which empties an instance store. The bootstrap, its settings and its unit arrive through the server's State
 * Manager association, renderApplyDocument in lib/bootstrap/apply.ts. This only makes sure the SSM agent that runs it
 * is enabled.
 */
export function renderLoaderUserData(): string[] {
  return [
    '# StorageServer (lib/bootstrap.ts): the bootstrap and its settings arrive through this server\'s SSM State',
    '# Manager association, never through user data, so that changing a setting never stops the instance.',
    'if systemctl list-unit-files amazon-ssm-agent.service >/dev/null 2>&1; then',
    '  systemctl enable --now amazon-ssm-agent.service || echo "StorageServer: cannot start amazon-ssm-agent" >&2',
    'elif command -v snap >/dev/null 2>&1; then',
    '  snap start --enable amazon-ssm-agent || echo "StorageServer: cannot start the amazon-ssm-agent snap" >&2',
    'else',
    '  echo "StorageServer: no SSM agent on this image: the storage bootstrap cannot arrive" >&2',
    'fi',
  ];
}
