#!/usr/bin/env node
// Offline check of Neo4j-dialect Cypher with Neo4j's own parser and semantic analysis
// (@neo4j-cypher/language-support), because no Neo4j server can run on the build machines.
//
// stdin:  JSON array of {"name": string, "query": string}
// stdout: JSON array of {"name", "errors": [{message, line, col}], "warnings": [{message, line, col}]}
//         in input order; line and col are 1-based.
// exit:   0 when every statement was linted (whether or not errors were found: the caller decides),
//         2 when stdin is not such an array, 1 on any other failure.
//
// Counted as errors (LSP severity Error): syntax errors, semantic errors (undefined variable, RETURN
// not last, ...), procedures and functions unknown to a Neo4j 5 server without plugins (vecf32, apoc.*),
// wrong procedure arity or YIELD names, Cypher 25-only syntax (the default language is Cypher 5, as on
// Neo4j 5.26 LTS), and a text that is not exactly one statement (the server rejects that too).
// Deprecations are warnings. Every $parameter is declared, so "Parameter $x is not defined" never fires.

import { createRequire } from 'node:module';

// The package's ESM build uses extension-less relative imports that Node's ESM loader rejects;
// its CommonJS build loads fine.
const require = createRequire(import.meta.url);
const { lintCypherQuery, parseParameters, parseStatementsStrs, testData } = require(
  '@neo4j-cypher/language-support',
);

const LANGUAGE = 'CYPHER 5';
// Plugin namespaces present in the package's catalogue; a Community server without plugins lacks them.
const PLUGIN_PREFIXES = ['apoc.', 'gds.'];
const ERROR = 1; // vscode-languageserver DiagnosticSeverity.Error
const WARNING = 2;

function builtIns(registry) {
  return Object.fromEntries(
    Object.entries(registry ?? {}).filter(([name]) => !PLUGIN_PREFIXES.some((p) => name.startsWith(p))),
  );
}

// The package ships the procedure/function catalogue of a real server as test data (pinned version).
// Without a catalogue the linter skips the procedure/function checks instead of failing.
function catalogue() {
  const mock = testData?.mockSchema;
  if (!mock?.procedures || !mock?.functions) {
    process.stderr.write('cypher-lint: no procedure catalogue in this package version; not checking calls\n');
    return {};
  }
  const scoped = (registry) =>
    Object.fromEntries(Object.entries(registry).map(([version, r]) => [version, builtIns(r)]));
  return { procedures: scoped(mock.procedures), functions: scoped(mock.functions) };
}

function position(diagnostic) {
  return {
    message: diagnostic.message,
    line: diagnostic.range.start.line + 1,
    col: diagnostic.range.start.character + 1,
  };
}

function lintOne(query, known) {
  const parameters = Object.fromEntries(parseParameters(query, false).map((name) => [name, null]));
  const diagnostics = lintCypherQuery(query, { ...known, parameters, defaultLanguage: LANGUAGE });
  const errors = diagnostics.filter((d) => d.severity === ERROR).map(position);
  const warnings = diagnostics.filter((d) => d.severity === WARNING).map(position);
  const statements = parseStatementsStrs(query).filter((s) => s.replace(/;\s*$/, '').trim() !== '').length;
  if (statements !== 1) {
    errors.push({ message: `expected exactly one statement, found ${statements}`, line: 1, col: 1 });
  }
  return { errors, warnings };
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function parseInput(text) {
  let items;
  try {
    items = JSON.parse(text);
  } catch (exc) {
    throw new TypeError(`stdin is not JSON: ${exc.message}`);
  }
  const valid = (item) =>
    item !== null && typeof item === 'object' && typeof item.name === 'string' && typeof item.query === 'string';
  if (!Array.isArray(items) || !items.every(valid)) {
    throw new TypeError('stdin must be a JSON array of {"name": string, "query": string}');
  }
  return items;
}

async function main() {
  let items;
  try {
    items = parseInput(await readStdin());
  } catch (exc) {
    process.stderr.write(`cypher-lint: ${exc.message}\n`);
    return 2;
  }
  const known = catalogue();
  const results = items.map(({ name, query }) => ({ name, ...lintOne(query, known) }));
  process.stdout.write(`${JSON.stringify(results)}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (exc) => {
    process.stderr.write(`cypher-lint: ${exc?.stack ?? exc}\n`);
    process.exitCode = 1;
  },
);
