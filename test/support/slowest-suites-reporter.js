/**
 * A jest reporter that prints, once every suite has run, the slowest test files with their wall time, so that whoever
 * makes `npm test` slower sees it; CONTRIBUTING.md gives the suite's budget on 2 cores. It is plain JavaScript, since
 * jest loads reporters without the TypeScript transform.
 */
class SlowestSuitesReporter {
  constructor(_globalConfig, options = {}) {
    this.count = options.count ?? 8;
  }

  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .filter((r) => r.perfStats && r.perfStats.end > r.perfStats.start)
      .map((r) => ({ file: r.testFilePath, seconds: (r.perfStats.end - r.perfStats.start) / 1000, tests: r.numPassingTests + r.numFailingTests }))
      .sort((a, b) => b.seconds - a.seconds);
    if (suites.length === 0) return;
    const wall = (Date.now() - results.startTime) / 1000;
    const root = process.cwd() + '/';
    const lines = suites.slice(0, this.count).map(
      (s) => `  ${s.seconds.toFixed(1).padStart(6)} s  ${String(s.tests).padStart(4)} tests  ${s.file.replace(root, '')}`,
    );
    process.stderr.write(`\nSlowest test files (of ${suites.length}; the whole run took ${wall.toFixed(0)} s):\n${lines.join('\n')}\n`);
  }
}

module.exports = SlowestSuitesReporter;
