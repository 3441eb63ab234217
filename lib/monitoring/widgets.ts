/**
 * The dashboard's graph, as every backend's row draws it: one size, the alarms' thresholds drawn as lines.
 */
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

/** A graph of the dashboard, with a horizontal line at each value of `lines`. */
export function graph(title: string, left: cloudwatch.IMetric[], lines: number[] = []): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({
    title,
    left,
    leftAnnotations: lines.map((value) => ({ value })),
    width: 6,
    height: 6,
  });
}
