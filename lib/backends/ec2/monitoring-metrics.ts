/**
 * The AWS metrics an EC2 server's monitoring reads, of EC2 and EBS, at the periods its alarms and widgets use. The
 * server's own metrics come from lib/server-metrics.ts.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';

export function ec2Metric(instance: ec2.IInstance, metricName: string, statistic: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/EC2', metricName, statistic, period: Duration.minutes(1),
    dimensionsMap: { InstanceId: instance.instanceId },
  });
}

export function ebsMetric(volume: ec2.IVolume, metricName: string, statistic: string, label?: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/EBS', metricName, statistic, label,
    // Five minutes: a burst bucket drains over hours, and a short spike of queue length is no news.
    period: Duration.minutes(5),
    dimensionsMap: { VolumeId: volume.volumeId },
  });
}

/** A volume's read plus write throughput, MiB/s, averaged over each five minutes of `ebsMetric`. */
export function ebsMiBps(volume: ec2.IVolume, index: number, label: string): cloudwatch.MathExpression {
  const seconds = 300;
  // Ids are per graph: each volume's own.
  return new cloudwatch.MathExpression({
    expression: `(r${index} + w${index}) / ${seconds} / ${1024 ** 2}`,
    usingMetrics: {
      [`r${index}`]: ebsMetric(volume, 'VolumeReadBytes', cloudwatch.Stats.SUM),
      [`w${index}`]: ebsMetric(volume, 'VolumeWriteBytes', cloudwatch.Stats.SUM),
    },
    label,
    period: Duration.seconds(seconds),
  });
}
