/** The message of what `fn` throws; fails the test when it does not throw. */
export function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error, but the input was accepted');
}

/** A message for a user: one line of text, no stack frames. */
export function expectNoStackTrace(message: string): void {
  expect(message).not.toMatch(/\n\s+at /);
  expect(message).not.toMatch(/\.(ts|js):\d+/);
}
