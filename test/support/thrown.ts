/** The message of what `fn` throws; fails the test when it does not throw. */
export function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error, but the input was accepted');
}
