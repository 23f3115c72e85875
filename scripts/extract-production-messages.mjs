#!/usr/bin/env node
/**
 * Writes test/fixtures/production-v2-messages.json: for each v2 route the production service binds to HTTP,
 * its rpc name and the message it answers with, and the fields (JSON names, JSON types, enum values, nested
 * messages) of every message reachable from those answers. Only what a strict decoder checks is kept: no
 * comments, no descriptions.
 *
 * Source: the production service's published .proto files (src/**.proto in its protocol repositories). They,
 * not the OpenAPI files generated beside them, are the reference: the generated files lag behind (they miss
 * fields the .proto files added later). JSON names follow protojson: lowerCamelCase of the field name.
 *
 *   node scripts/extract-production-messages.mjs <protocol repo dir>... > test/fixtures/production-v2-messages.json
 *
 * Each argument is a checked-out repository or a bare one (files are then read with `git show HEAD:<path>`).
 * test/http/v2-production-messages.test.ts compares the served v2 response schemas with this file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function protoFilesOf(dir) {
  if (existsSync(join(dir, 'src'))) {
    const out = [];
    const walk = (d) => {
      for (const name of readdirSync(d)) {
        const path = join(d, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.proto')) out.push({ name: relative(dir, path), text: readFileSync(path, 'utf8') });
      }
    };
    walk(join(dir, 'src'));
    return out;
  }
  const names = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--name-only', 'HEAD', 'src'], { encoding: 'utf8' })
    .split('\n')
    .filter((n) => n.endsWith('.proto'));
  return names.map((name) => ({ name, text: execFileSync('git', ['-C', dir, 'show', `HEAD:${name}`], { encoding: 'utf8' }) }));
}

/** Tokens of a .proto file: identifiers (dotted), numbers, strings (unquoted, marked), punctuation. */
function tokenize(text) {
  const tokens = [];
  const re = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([A-Za-z_][\w.]*)|(-?\d[\w.]*)|([{}()[\]<>;=,:])|\s+/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined || m[2] !== undefined) tokens.push({ string: m[1] ?? m[2] });
    else if (m[3] !== undefined) tokens.push(m[3]);
    else if (m[4] !== undefined) tokens.push(m[4]);
    else if (m[5] !== undefined) tokens.push(m[5]);
  }
  return tokens;
}

const jsonName = (field) => field.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

const SCALARS = {
  string: { type: 'string' },
  bytes: { type: 'string', format: 'byte' },
  bool: { type: 'boolean' },
  double: { type: 'number', format: 'double' },
  float: { type: 'number', format: 'float' },
  int32: { type: 'integer', format: 'int32' },
  sint32: { type: 'integer', format: 'int32' },
  sfixed32: { type: 'integer', format: 'int32' },
  uint32: { type: 'integer', format: 'int64' },
  fixed32: { type: 'integer', format: 'int64' },
  int64: { type: 'string', format: 'int64' },
  sint64: { type: 'string', format: 'int64' },
  sfixed64: { type: 'string', format: 'int64' },
  uint64: { type: 'string', format: 'uint64' },
  fixed64: { type: 'string', format: 'uint64' },
};
const WELL_KNOWN = {
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time' },
  'google.protobuf.Duration': { type: 'string' },
};
// google.type.Money as protojson writes it (its .proto is not in these repositories).
const MONEY = { currencyCode: { type: 'string' }, units: { type: 'string', format: 'int64' }, nanos: { type: 'integer', format: 'int32' } };

/** Everything declared: messages (fields still naming their types as written) and enums, by full name. */
function parse(files) {
  const messages = new Map([['google.type.Money', { scope: 'google.type.Money', fields: null, resolved: MONEY }]]);
  const enums = new Map();
  const rpcs = [];
  for (const file of files) {
    const t = tokenize(file.text);
    let i = 0;
    let pkg = '';
    const expect = (tok) => {
      if (t[i] !== tok) throw new Error(`${file.name}: expected ${tok} at token ${i}, got ${JSON.stringify(t[i])}`);
      i++;
    };
    const skipBalanced = (open, close) => {
      let depth = 0;
      do {
        if (t[i] === open) depth++;
        else if (t[i] === close) depth--;
        i++;
      } while (depth > 0 && i < t.length);
    };
    // `option … = value;` where value may be an aggregate `{ … }`, possibly followed by a stray `;` line.
    const skipOption = () => {
      while (i < t.length && t[i] !== ';' && t[i] !== '{') i++;
      if (t[i] === '{') skipBalanced('{', '}');
      if (t[i] === ';') i++;
    };
    const readField = (scope, fields) => {
      if (t[i] === 'repeated' || t[i] === 'optional') {
        const label = t[i++];
        const type = t[i++];
        const name = t[i++];
        fields.push({ name, type, repeated: label === 'repeated', scope });
      } else if (t[i] === 'map') {
        i++;
        expect('<');
        const key = t[i++];
        expect(',');
        const value = t[i++];
        expect('>');
        fields.push({ name: t[i++], map: { key, value }, scope });
      } else {
        const type = t[i++];
        fields.push({ name: t[i++], type, repeated: false, scope });
      }
      while (t[i] !== ';') i++;
      i++;
    };
    const readEnum = (full) => {
      expect('{');
      const values = [];
      while (t[i] !== '}') {
        if (t[i] === 'option' || t[i] === 'reserved') skipOption();
        else {
          values.push(t[i]);
          while (t[i] !== ';') i++;
          i++;
        }
      }
      i++;
      enums.set(full, values);
    };
    const readMessage = (full) => {
      expect('{');
      const fields = [];
      messages.set(full, { scope: full, fields });
      while (t[i] !== '}') {
        const tok = t[i];
        if (tok === ';') i++;
        else if (tok === 'option' || tok === 'reserved' || tok === 'extensions') skipOption();
        else if (tok === 'message') {
          i++;
          const name = t[i++];
          readMessage(`${full}.${name}`);
        } else if (tok === 'enum') {
          i++;
          const name = t[i++];
          readEnum(`${full}.${name}`);
        } else if (tok === 'oneof') {
          i += 2;
          expect('{');
          while (t[i] !== '}') {
            if (t[i] === 'option') skipOption();
            else readField(full, fields);
          }
          i++;
        } else readField(full, fields);
      }
      i++;
    };
    const readService = () => {
      expect('{');
      while (t[i] !== '}') {
        if (t[i] === 'option') {
          skipOption();
          continue;
        }
        if (t[i] === ';') {
          i++;
          continue;
        }
        expect('rpc');
        const rpc = t[i++];
        expect('(');
        if (t[i] === 'stream') i++;
        i++;
        expect(')');
        expect('returns');
        expect('(');
        if (t[i] === 'stream') i++;
        const output = t[i++];
        expect(')');
        const bindings = [];
        if (t[i] === '{') {
          i++;
          while (t[i] !== '}') {
            if (t[i] === 'option' && t[i + 1] === '(' && t[i + 2] === 'google.api.http') {
              const start = i;
              skipOption();
              const body = t.slice(start, i);
              for (let k = 0; k < body.length; k++) {
                const verb = body[k];
                if (['get', 'post', 'put', 'delete', 'patch'].includes(verb) && (body[k + 1] === ':' ? body[k + 2] : body[k + 1])?.string !== undefined) {
                  const path = (body[k + 1] === ':' ? body[k + 2] : body[k + 1]).string;
                  bindings.push({ method: verb.toUpperCase(), path });
                }
              }
            } else if (t[i] === 'option') skipOption();
            else i++;
          }
          i++;
        } else expect(';');
        for (const b of bindings) rpcs.push({ rpc, output, scope: pkg, ...b });
      }
      i++;
    };
    while (i < t.length) {
      const tok = t[i];
      if (tok === 'syntax' || tok === 'import' || tok === 'option' || tok === 'edition') skipOption();
      else if (tok === 'package') {
        pkg = t[i + 1];
        i += 3;
      } else if (tok === 'message') {
        i++;
        const name = t[i++];
        readMessage(pkg ? `${pkg}.${name}` : name);
      } else if (tok === 'enum') {
        i++;
        const name = t[i++];
        readEnum(pkg ? `${pkg}.${name}` : name);
      } else if (tok === 'service') {
        i += 2;
        readService();
      } else if (tok === ';') i++;
      else throw new Error(`${file.name}: unexpected ${JSON.stringify(tok)} at token ${i}`);
    }
  }
  return { messages, enums, rpcs };
}

/** protobuf name resolution: from the innermost scope outwards, then as a full name. */
function resolveName(name, scope, declared) {
  if (name.startsWith('.')) return declared(name.slice(1)) ? name.slice(1) : null;
  const parts = scope.split('.');
  for (let n = parts.length; n >= 0; n--) {
    const candidate = [...parts.slice(0, n), name].filter(Boolean).join('.');
    if (declared(candidate)) return candidate;
  }
  return null;
}

// The one enum value that carries the production operator's own name: the contract (resolutions §4) names
// the same source CHECK_SOURCE_SERVICE, and this project never names that company.
const OPERATOR_SOURCE = /^CHECK_SOURCE_(?!UNSPECIFIED$|INTEGRATION$|SERVICE$)[A-Z]+$/;
const enumOf = (values) => values.map((v) => (OPERATOR_SOURCE.test(v) ? 'CHECK_SOURCE_SERVICE' : v));

const files = process.argv.slice(2).flatMap(protoFilesOf);
const { messages, enums, rpcs } = parse(files);
const isDeclared = (name) => messages.has(name) || enums.has(name) || name in WELL_KNOWN;

const output = { operations: {}, messages: {} };
const pending = [];
function shapeOfType(type, scope) {
  if (SCALARS[type]) return { ...SCALARS[type] };
  const full = resolveName(type, scope, isDeclared);
  if (full === null) throw new Error(`unknown type ${type} in ${scope}`);
  if (WELL_KNOWN[full]) return { ...WELL_KNOWN[full] };
  if (enums.has(full)) return { enum: enumOf(enums.get(full)) };
  pending.push(full);
  return { message: full };
}
for (const { rpc, output: type, scope, method, path } of rpcs) {
  if (!path.startsWith('/v2/')) continue;
  const openApiPath = path.replace(/\{([a-z0-9_]+)(=[^}]*)?\}/g, (_, name) => `{${jsonName(name)}}`);
  output.operations[`${method} ${openApiPath}`] = { rpc, message: shapeOfType(type, scope).message };
}
while (pending.length > 0) {
  const name = pending.shift();
  if (output.messages[name]) continue;
  const message = messages.get(name);
  if (message.resolved) {
    output.messages[name] = message.resolved;
    continue;
  }
  const fields = {};
  for (const field of message.fields) {
    let shape;
    if (field.map) shape = { map: shapeOfType(field.map.value, field.scope) };
    else {
      shape = shapeOfType(field.type, field.scope);
      if (field.repeated) shape = { array: shape };
    }
    fields[jsonName(field.name)] = shape;
  }
  output.messages[name] = fields;
}

const sorted = (record) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
process.stdout.write(`${JSON.stringify({ operations: sorted(output.operations), messages: sorted(output.messages) }, null, 1)}\n`);
