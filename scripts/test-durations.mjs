// A node:test reporter (scripts/test.mjs adds it beside the usual one): the
// time of each test file's top-level tests, summed, as JSON by absolute path,
// which the next run orders its files by (scripts/test-files.mjs), and the
// slowest files at the end of the run on stderr, to see where the time goes.
export default async function* durations(source) {
  const byFile = {};
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      byFile[event.data.file] = (byFile[event.data.file] ?? 0) + (event.data.details?.duration_ms ?? 0);
    }
  }
  const slowest = Object.entries(byFile)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10);
  process.stderr.write(
    `# slowest files (s): ${slowest.map(([f, ms]) => `${f.replace(`${process.cwd()}/`, '')} ${(ms / 1000).toFixed(1)}`).join(', ')}\n`,
  );
  yield `${JSON.stringify(byFile, null, 1)}\n`;
}
