/**
 * The update guard's stack status read (lambda/update-guard/status-read.ts): its deadline follows the time the
 * function has left, so that the refusal always reaches CloudFormation.
 */
import { STATUS_DEADLINE_MS, STATUS_RESERVE_MS, statusDeadlineMs, statusReadError } from '../../lambda/update-guard/status-read';

describe('the status read deadline', () => {
  test('the full deadline when the remaining time is unknown or ample', () => {
    expect(statusDeadlineMs()).toBe(STATUS_DEADLINE_MS);
    expect(statusDeadlineMs(Number.NaN)).toBe(STATUS_DEADLINE_MS);
    expect(statusDeadlineMs(STATUS_DEADLINE_MS + STATUS_RESERVE_MS + 1)).toBe(STATUS_DEADLINE_MS);
  });

  test('shortened to keep the reserve, and never negative', () => {
    expect(statusDeadlineMs(STATUS_RESERVE_MS + 3_000)).toBe(3_000);
    expect(statusDeadlineMs(STATUS_RESERVE_MS)).toBe(0);
    expect(statusDeadlineMs(1_000)).toBe(0);
  });

  test('a read cut short names the deadline it had', () => {
    const aborted = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    expect(statusReadError(aborted, 3_000)).toBe('no answer within the 3 s the guard gives the read');
    expect(statusReadError(aborted, 2_500)).toBe('no answer within the 2.5 s the guard gives the read');
    expect(statusReadError(new Error('boom'))).toBe('Error: boom');
    expect(statusReadError(aborted, 0)).toBe(`not asked: the function had no time left beyond the ${STATUS_RESERVE_MS / 1000} s it keeps in reserve`);
  });
});
