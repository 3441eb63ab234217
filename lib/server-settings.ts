import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { BootstrapConfig, applyTimeoutSeconds, renderApplyDocument } from './bootstrap';

/** Properties of a {@link ServerSettings}. */
export interface ServerSettingsProps {
  /** The storage server instance the settings are applied to. */
  readonly instance: ec2.Instance;
  /** What the bootstrap builds and exports: every setting the server applies. */
  readonly config: BootstrapConfig;
  /**
   * Bash lines run after a successful bootstrap, e.g. the clusterware ring join.
   * @default - none
   */
  readonly extraCommands?: string[];
}

/**
 * The server's settings source: an SSM Command document that carries the bootstrap script, its settings and its unit,
 * and a State Manager association that runs it on the instance. The association runs when it is created, and again
 * whenever the stack changes the document: a new setting, a grown volume, or a new version of the script. The document
 * is then replaced and the association points at the new one. CloudFormation waits for it, so a create or update
 * completes only once the server reports the settings applied. Otherwise it fails, with the run's output in Run
 * Command's history. Nothing of this is in user data, so no setting change stops the instance (docs/design.md, section
 * 10).
 */
export class ServerSettings extends Construct {
  /** The apply document. */
  public readonly document: ssm.CfnDocument;
  /** The association that runs the document on the instance; completes when the export is live. */
  public readonly association: ssm.CfnAssociation;

  constructor(scope: Construct, id: string, props: ServerSettingsProps) {
    super(scope, id);
    this.document = new ssm.CfnDocument(this, 'Document', {
      documentType: 'Command',
      content: renderApplyDocument(props.config, props.extraCommands ?? []),
    });
    this.association = new ssm.CfnAssociation(this, 'Association', {
      name: this.document.ref,
      targets: [{ key: 'InstanceIds', values: [props.instance.instanceId] }],
      // CloudFormation waits for Success on create and on every update, by the association provider's
      // InitialUpdateHandler. That replaces the first boot's WaitCondition and gives updates the same gate.
      waitForSuccessTimeoutSeconds: applyTimeoutSeconds(props.config),
    });
  }
}
