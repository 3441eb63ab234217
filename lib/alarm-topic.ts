import { Aws, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { logEncryptionKey } from './compliance';
import { EMAIL_PATTERN } from './validation';

// The alarm topic of a storage server: the SNS topic that its alarms in lib/monitoring.ts notify.

/**
 * The topic the alarms notify: the one given, or a new one. A new topic is subscribed by the e-mail address if one is
 * given, and the address must confirm it. Subscribe anything else to it later; its ARN is an output of the app's stack.
 * The new topic takes only TLS and lets the alarms of this account publish; its policy replaces SNS's default one. It
 * is encrypted with the stack's key for logs and alarm topics, whose policy lets CloudWatch use it, since CloudWatch
 * cannot use the AWS managed SNS key.
 */
export function alarmTopicFor(scope: Construct, options: { readonly alarmTopic?: sns.ITopic; readonly alarmEmail?: string }): sns.ITopic {
  if (options.alarmTopic && options.alarmEmail !== undefined) {
    throw new Error('alarmTopic and alarmEmail: give one (subscribe the address to your topic yourself)');
  }
  if (options.alarmTopic) return options.alarmTopic;
  if (options.alarmEmail !== undefined && !Token.isUnresolved(options.alarmEmail) && !EMAIL_PATTERN.test(options.alarmEmail)) {
    throw new Error(`alarmEmail must be one e-mail address such as ops@example.com, got '${options.alarmEmail}'`);
  }
  const topic = new sns.Topic(scope, 'AlarmTopic', { masterKey: logEncryptionKey(scope), enforceSSL: true, displayName: 'StorageServer alarms' });
  // enforceSSL gives the topic a policy of its own, which replaces SNS's default one: without this statement
  // nothing lets CloudWatch publish, and every alarm notification fails. Only alarms of this account and region.
  topic.addToResourcePolicy(new iam.PolicyStatement({
    sid: 'CloudWatchAlarmsOfThisAccount',
    principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
    actions: ['sns:Publish'],
    resources: [topic.topicArn],
    conditions: {
      StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
      ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
    },
  }));
  if (options.alarmEmail !== undefined) topic.addSubscription(new subscriptions.EmailSubscription(options.alarmEmail));
  return topic;
}
