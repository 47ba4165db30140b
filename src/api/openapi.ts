import { TRANSPORT_CODES, type ErrorCode } from '../errors.ts';
import type { LoginScript, SessionScript } from './call.ts';
import { errorsOf, type Contract, type JsonSchema, type ParamSpec } from './contract/index.ts';
import { SCRIPTS } from './scripts.ts';

/**
 * GET /api/openapi.json: OpenAPI 3.1, generated from the script table
 * (src/api/scripts.ts and the declarations in src/api/contract/), so it
 * cannot drift from what is served. Every served name is a path, the
 * shared names (spec note on 14, 18-20) with one request and reply
 * alternative per operation they serve.
 */

type Schema = Record<string, unknown>;

function jsonSchema(s: JsonSchema): Schema {
  const out: Schema = {};
  switch (s.type) {
    case 'string':
      Object.assign(out, { type: 'string' }, s.enum ? { enum: [...s.enum] } : {});
      break;
    case 'number':
    case 'boolean':
      out.type = s.nullable ? [s.type, 'null'] : s.type;
      break;
    case 'scalar':
      out.type = ['string', 'number'];
      break;
    case 'array':
      Object.assign(out, { type: 'array', items: jsonSchema(s.items) });
      break;
    case 'object':
      Object.assign(out, objectSchema(s.fields));
      break;
    case 'map':
      Object.assign(out, { type: 'object', additionalProperties: jsonSchema(s.values) });
      break;
  }
  if (s.doc) out.description = s.doc;
  return out;
}

function objectSchema(fields: Readonly<Record<string, JsonSchema>>, extra: Record<string, Schema> = {}): Schema {
  const required = [
    ...Object.keys(extra),
    ...Object.entries(fields)
      .filter(([, f]) => !f.optional)
      .map(([k]) => k),
  ];
  const properties = { ...extra, ...Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, jsonSchema(f)])) };
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** A form field: text on the wire, with the table's kind, range and code as `x-` annotations. */
function paramSchema(p: ParamSpec): Schema {
  return {
    type: 'string',
    ...(p.kind === 'enum' ? { enum: [...p.values!] } : {}),
    ...(p.kind === 'integer' ? { pattern: '^[0-9]+$', 'x-minimum': p.min, 'x-maximum': p.max } : {}),
    description: p.doc,
    'x-kind': p.kind,
    ...(p.code ? { 'x-error': p.code } : {}),
    ...(p.missingCode ? { 'x-error-missing': p.missingCode } : {}),
    'x-checked-by': p.checkedBy,
  };
}

function requestSchema(c: Contract & { session: boolean }): Schema {
  const auth: Record<string, Schema> = {
    apikey: { type: 'string', description: "the account's API key (32 lowercase hex characters)" },
  };
  if (c.session) auth.sessionToken = { type: 'string', description: 'from auth.php' };
  const params = Object.entries(c.params);
  return {
    type: 'object',
    description: c.summary,
    properties: { ...auth, ...Object.fromEntries(params.map(([k, p]) => [k, paramSchema(p)])) },
    required: [...Object.keys(auth), ...params.filter(([, p]) => p.required).map(([k]) => k)],
    // Extension scripts refuse an unknown field; spec scripts log and ignore it.
    additionalProperties: !c.extension,
    'x-requires': [...c.requires],
  };
}

/** The error reply `{status, error}` with the codes given; a variable code (`reportLoadFailure[…]`) as a pattern. */
function errorSchema(codes: readonly string[]): Schema {
  const fixed = codes.filter((c) => !c.includes('['));
  const variable = [...new Set(codes.filter((c) => c.includes('[')).map((c) => c.slice(0, c.indexOf('['))))];
  const error: Schema = variable.length
    ? {
        anyOf: [
          { type: 'string', enum: fixed },
          ...variable.map((v) => ({ type: 'string', pattern: `^${v}\\[[^\\]]*\\]$` })),
        ],
      }
    : { type: 'string', enum: fixed };
  return {
    type: 'object',
    properties: { status: { type: 'string', const: '-1' }, error },
    required: ['status', 'error'],
    additionalProperties: false,
  };
}

const TRANSPORT_RESPONSES = Object.fromEntries(
  Object.entries(TRANSPORT_CODES).map(([code, http]) => [
    String(http),
    { description: `transport: ${code}`, content: { 'application/json': { schema: errorSchema([code]) } } },
  ]),
);

function operation(name: string, ops: readonly (SessionScript | LoginScript)[]): Schema {
  // anyOf: the operations of a shared name overlap (a form or a reply of one may fit another).
  const one = <T>(list: T[]): T | { anyOf: T[] } => (list.length === 1 ? list[0]! : { anyOf: list });
  const codes = [...new Set(ops.flatMap((o) => errorsOf(o)))] as ErrorCode[];
  const success = ops.map((o) => objectSchema(o.reply, { status: { type: 'string', const: '0' } }));
  const responses: Record<string, unknown> = {
    '200': {
      description: 'status "0" and the reply fields, or status "-1" and one of the codes',
      content: {
        'application/json': {
          schema: {
            anyOf: [...new Set(success.map((s) => JSON.stringify(s)))]
              .map((s) => JSON.parse(s))
              .concat([errorSchema(codes)]),
          },
        },
      },
    },
    ...TRANSPORT_RESPONSES,
  };
  if (name === 'auth.php')
    responses['429'] = {
      description: 'login throttled (Retry-After)',
      content: { 'application/json': { schema: errorSchema(['invalidLogin']) } },
    };
  return {
    operationId: name.replace(/\.php$/, ''),
    summary: ops.map((o) => o.summary).join('; or '),
    ...(ops.length > 1
      ? { description: `Shared name: serves ${ops.length} operations, told apart by the fields sent.` }
      : {}),
    requestBody: {
      required: true,
      content: { 'application/x-www-form-urlencoded': { schema: one(ops.map(requestSchema)) } },
    },
    responses,
  };
}

export function openApiDocument(): Schema {
  const paths = Object.fromEntries(
    Object.entries(SCRIPTS).map(([name, s]) => [
      `/api/${name}`,
      { post: operation(name, 'alias' in s ? s.operations : [s]) },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vigil API',
      version: '1',
      description: 'Security audits and DNS hosting: POST a form, JSON back. Generated from the script table.',
    },
    paths,
  };
}

let text: string | undefined;
/** The document's JSON text, built once: the table does not change while serving. */
export const openApiText = (): string => (text ??= JSON.stringify(openApiDocument()));
