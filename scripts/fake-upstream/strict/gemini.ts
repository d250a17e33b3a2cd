/*
 * Gemini generateContent / streamGenerateContent / countTokens checks, as the real API makes them:
 * 1. The proto JSON parser: any field the message does not have, anywhere (top level, parts,
 *    generationConfig, function declarations, and the OpenAPI-subset `Schema` of `parameters` and
 *    `responseSchema`, where JSON Schema's `additionalProperties`, `$schema`, `$ref`, `const`,
 *    `exclusiveMinimum`... do not exist) -> `Invalid JSON payload received. Unknown name "X" at 'Y':
 *    Cannot find field.` (camelCase and snake_case names are both taken, as protobuf JSON does);
 *    non-object args/response, bad base64, enum values, lists where one value goes.
 * 2. Semantic checks (`* GenerateContentRequest.<path>: ...` lines): empty parts, parts with no or
 *    two data fields, string formats other than enum/date-time, empty OBJECT properties, required
 *    names that are not properties, function names, response MIME types.
 * 3. Conversation checks: roles user/model only, function-call turns after a user or function-
 *    response turn, as many functionResponse parts as the calls they answer, and for Gemini 3
 *    models the thought signature of the first functionCall of each step in the current turn.
 */
import { isGeminiThinkingSignatureModel, isIssuedThoughtSignature, SKIP_THOUGHT_SIGNATURE } from './signatures.ts';
import { isObject, type Json, type StrictRefusal, type StrictValidator } from './types.ts';

export function geminiError(message: string, violations: { field: string; description: string }[] = []): StrictRefusal {
  return {
    status: 400,
    body: {
      error: {
        code: 400,
        message,
        status: 'INVALID_ARGUMENT',
        ...(violations.length
          ? { details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations }] }
          : {}),
      },
    },
  };
}

/** A field's kind: a scalar, a message, a repeated message, a map of messages, or bytes. */
type Kind = 'scalar' | 'bytes' | 'struct' | 'type' | { msg: string } | { list: string } | { map: string };
const M = (msg: string) => ({ msg });
const L = (list: string) => ({ list });

/** The request messages of Gemini's v1beta proto the fake knows (camelCase field names). */
const PROTO: Record<string, Record<string, Kind>> = {
  GenerateContentRequest: {
    model: 'scalar',
    contents: L('Content'),
    tools: L('Tool'),
    toolConfig: M('ToolConfig'),
    safetySettings: L('SafetySetting'),
    systemInstruction: M('Content'),
    generationConfig: M('GenerationConfig'),
    cachedContent: 'scalar',
  },
  CountTokensRequest: { contents: L('Content'), generateContentRequest: M('GenerateContentRequest') },
  Content: { role: 'scalar', parts: L('Part') },
  Part: {
    text: 'scalar',
    inlineData: M('Blob'),
    fileData: M('FileData'),
    functionCall: M('FunctionCall'),
    functionResponse: M('FunctionResponse'),
    executableCode: 'struct',
    codeExecutionResult: 'struct',
    thought: 'scalar',
    thoughtSignature: 'bytes',
    videoMetadata: 'struct',
    partMetadata: 'struct',
    mediaResolution: 'struct',
  },
  Blob: { mimeType: 'scalar', data: 'bytes' },
  FileData: { mimeType: 'scalar', fileUri: 'scalar' },
  FunctionCall: { id: 'scalar', name: 'scalar', args: 'struct' },
  FunctionResponse: {
    id: 'scalar',
    name: 'scalar',
    response: 'struct',
    parts: L('FunctionResponsePart'),
    willContinue: 'scalar',
    scheduling: 'scalar',
  },
  FunctionResponsePart: { inlineData: M('Blob') },
  Tool: {
    functionDeclarations: L('FunctionDeclaration'),
    googleSearchRetrieval: 'struct',
    codeExecution: 'struct',
    googleSearch: 'struct',
    urlContext: 'struct',
    computerUse: 'struct',
    fileSearch: 'struct',
    googleMaps: 'struct',
  },
  FunctionDeclaration: {
    name: 'scalar',
    description: 'scalar',
    behavior: 'scalar',
    parameters: M('Schema'),
    parametersJsonSchema: 'struct',
    response: M('Schema'),
    responseJsonSchema: 'struct',
  },
  Schema: {
    type: 'type',
    format: 'scalar',
    title: 'scalar',
    description: 'scalar',
    nullable: 'scalar',
    enum: 'scalar',
    maxItems: 'scalar',
    minItems: 'scalar',
    properties: { map: 'Schema' },
    required: 'scalar',
    minProperties: 'scalar',
    maxProperties: 'scalar',
    minLength: 'scalar',
    maxLength: 'scalar',
    pattern: 'scalar',
    example: 'struct',
    anyOf: L('Schema'),
    propertyOrdering: 'scalar',
    default: 'struct',
    items: M('Schema'),
    minimum: 'scalar',
    maximum: 'scalar',
  },
  ToolConfig: { functionCallingConfig: M('FunctionCallingConfig'), retrievalConfig: 'struct' },
  FunctionCallingConfig: { mode: 'scalar', allowedFunctionNames: 'scalar' },
  SafetySetting: { category: 'scalar', threshold: 'scalar', method: 'scalar' },
  GenerationConfig: {
    stopSequences: 'scalar',
    responseMimeType: 'scalar',
    responseSchema: M('Schema'),
    responseJsonSchema: 'struct',
    responseModalities: 'scalar',
    candidateCount: 'scalar',
    maxOutputTokens: 'scalar',
    temperature: 'scalar',
    topP: 'scalar',
    topK: 'scalar',
    seed: 'scalar',
    presencePenalty: 'scalar',
    frequencyPenalty: 'scalar',
    responseLogprobs: 'scalar',
    logprobs: 'scalar',
    enableEnhancedCivicAnswers: 'scalar',
    speechConfig: 'struct',
    thinkingConfig: M('ThinkingConfig'),
    imageConfig: 'struct',
    mediaResolution: 'scalar',
  },
  ThinkingConfig: { includeThoughts: 'scalar', thinkingBudget: 'scalar', thinkingLevel: 'scalar' },
};

const TYPES = ['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL'];
const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const join = (path: string, field: string) => (path ? `${path}.${field}` : field);
/** The fields a part may set one of (its `data` oneof). */
const PART_DATA = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
];

/** Step 1: the proto parser. Returns the first parse error's message (and its field), or null. */
function parse(o: Json, message: string, path: string, out: { field: string; description: string }[]): void {
  const fields = PROTO[message];
  let dataSet: string | undefined;
  for (const [key, value] of Object.entries(o)) {
    const name = camel(key);
    const kind = fields[name];
    const where = path ? ` at '${path}'` : '';
    if (!kind) {
      out.push({
        field: path,
        description: `Invalid JSON payload received. Unknown name "${key}"${where}: Cannot find field.`,
      });
      continue;
    }
    if (message === 'Part' && PART_DATA.includes(name)) {
      if (dataSet)
        out.push({
          field: path,
          description: `Invalid JSON payload received. Unknown name "${key}"${where}: Oneof field 'data' is already set. Cannot set '${name}'`,
        });
      dataSet = name;
    }
    const at = join(path, snake(name));
    if (kind === 'scalar' || value === null) continue;
    if (kind === 'type') {
      if (Array.isArray(value))
        out.push({
          field: at,
          description: `Invalid JSON payload received. Unknown name "${key}"${where}: Proto field is not repeating, cannot start list.`,
        });
      else if (typeof value !== 'string' || !TYPES.includes(value.toUpperCase()))
        out.push({
          field: at,
          description: `Invalid value at '${at}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(value)}`,
        });
    } else if (kind === 'bytes') {
      if (typeof value !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(value))
        out.push({
          field: at,
          description: `Invalid value at '${at}' (TYPE_BYTES), Base64 decoding failed for ${JSON.stringify(String(value).slice(0, 40))}`,
        });
    } else if (kind === 'struct') {
      if (!isObject(value))
        out.push({
          field: at,
          description: `Invalid value at '${at}' (type.googleapis.com/google.protobuf.Struct), ${JSON.stringify(value)}`,
        });
    } else if ('msg' in kind) {
      if (isObject(value)) parse(value, kind.msg, at, out);
      else out.push({ field: at, description: `Invalid value at '${at}' (${kind.msg}), ${JSON.stringify(value)}` });
    } else if ('list' in kind) {
      if (!Array.isArray(value))
        out.push({
          field: at,
          description: `Invalid JSON payload received. Unknown name "${key}"${where}: Proto field is repeating, cannot start object.`,
        });
      else value.forEach((v, i) => isObject(v) && parse(v, kind.list, `${at}[${i}]`, out));
    } else if (isObject(value))
      Object.values(value).forEach((v, i) => isObject(v) && parse(v, kind.map, `${at}[${i}].value`, out));
  }
}

type Semantic = string[];
const line = (path: string, msg: string) => `* GenerateContentRequest.${path}: ${msg}\n`;

/** Step 2 for a `Schema` (properties named by key, as Gemini's semantic errors name them). */
function checkSchema(s: Json, path: string, out: Semantic) {
  const type = typeof s.type === 'string' ? s.type.toUpperCase() : undefined;
  const fmt = s.format;
  if (fmt !== undefined) {
    if (type === 'STRING' && fmt !== 'enum' && fmt !== 'date-time')
      out.push(line(`${path}.format`, "only 'enum' and 'date-time' are supported for STRING type"));
    if (type === 'NUMBER' && fmt !== 'float' && fmt !== 'double')
      out.push(line(`${path}.format`, "only 'float' and 'double' are supported for NUMBER type"));
    if (type === 'INTEGER' && fmt !== 'int32' && fmt !== 'int64')
      out.push(line(`${path}.format`, "only 'int32' and 'int64' are supported for INTEGER type"));
  }
  if (s.enum !== undefined && type !== 'STRING') out.push(line(`${path}.enum`, 'only allowed for STRING type'));
  const props = isObject(s.properties) ? s.properties : undefined;
  if (type === 'OBJECT' && props && Object.keys(props).length === 0)
    out.push(line(`${path}.properties`, 'should be non-empty for OBJECT type'));
  if (Array.isArray(s.required))
    s.required.forEach((r, i) => {
      if (!props || !(String(r) in props)) out.push(line(`${path}.required[${i}]`, 'property is not defined'));
    });
  if (type === 'ARRAY' && !isObject(s.items)) out.push(line(`${path}.items`, 'missing field.'));
  for (const [k, v] of Object.entries(props ?? {})) if (isObject(v)) checkSchema(v, `${path}.properties[${k}]`, out);
  if (isObject(s.items)) checkSchema(s.items, `${path}.items`, out);
  if (Array.isArray(s.anyOf)) s.anyOf.forEach((v, i) => isObject(v) && checkSchema(v, `${path}.any_of[${i}]`, out));
}

const get = (o: Json, name: string): unknown => o[name] ?? o[snake(name)];

function checkSemantics(req: Json, prefix: string, out: Semantic) {
  const contents = get(req, 'contents');
  if (Array.isArray(contents))
    contents.forEach((c: Json, i) => {
      const parts = get(c, 'parts');
      if (!Array.isArray(parts) || parts.length === 0)
        return out.push(line(`${prefix}contents[${i}].parts`, 'contents.parts must not be empty.'));
      parts.forEach((p: Json, j) => {
        if (!PART_DATA.some((f) => get(p, f) !== undefined))
          out.push(
            line(
              `${prefix}contents[${i}].parts[${j}].data`,
              "required oneof field 'data' must have one initialized field",
            ),
          );
        const fc = get(p, 'functionCall');
        if (isObject(fc) && !fc.name)
          out.push(line(`${prefix}contents[${i}].parts[${j}].function_call.name`, 'Name cannot be empty.'));
      });
    });
  const tools = get(req, 'tools');
  if (Array.isArray(tools))
    tools.forEach((t: Json, i) => {
      const decls = get(t, 'functionDeclarations');
      if (!Array.isArray(decls)) return;
      decls.forEach((d: Json, j) => {
        const at = `${prefix}tools[${i}].function_declarations[${j}]`;
        if (typeof d.name !== 'string' || !/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/.test(d.name))
          out.push(
            line(
              `${at}.name`,
              'Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64.',
            ),
          );
        const params = get(d, 'parameters');
        if (params !== undefined && get(d, 'parametersJsonSchema') !== undefined)
          out.push(line(at, 'parameters and parameters_json_schema must not both be set.'));
        if (isObject(params)) checkSchema(params, `${at}.parameters`, out);
      });
    });
  const gen = get(req, 'generationConfig');
  if (isObject(gen)) {
    const mime = get(gen, 'responseMimeType');
    const mimes = ['text/plain', 'application/json', 'application/xml', 'application/yaml', 'text/x.enum'];
    if (mime !== undefined && !mimes.includes(String(mime)))
      out.push(
        line(
          `${prefix}generation_config.response_mime_type`,
          'allowed mimetypes are `text/plain`, `application/json`, `application/xml`, `application/yaml` and `text/x.enum`.',
        ),
      );
    const schema = get(gen, 'responseSchema');
    const jsonSchema = get(gen, 'responseJsonSchema');
    if ((schema !== undefined || jsonSchema !== undefined) && mime !== 'application/json' && mime !== 'text/x.enum')
      out.push(
        line(
          `${prefix}generation_config.response_mime_type`,
          'response_mime_type must be one of the following: [application/json, text/x.enum] when a response schema is set.',
        ),
      );
    if (schema !== undefined && jsonSchema !== undefined)
      out.push(line(`${prefix}generation_config`, 'response_schema and response_json_schema must not both be set.'));
    if (isObject(schema)) checkSchema(schema, `${prefix}generation_config.response_schema`, out);
  }
}

/** Step 3: the conversation, and the model's own thinking rules. */
function checkConversation(req: Json, model: string, signatures: boolean): StrictRefusal | null {
  const contents = (get(req, 'contents') ?? []) as Json[];
  const partsOf = (c: Json | undefined) => ((c && get(c, 'parts')) ?? []) as Json[];
  const calls = (c: Json | undefined) => partsOf(c).filter((p) => isObject(get(p, 'functionCall')));
  const responses = (c: Json | undefined) => partsOf(c).filter((p) => isObject(get(p, 'functionResponse')));
  for (const [i, c] of contents.entries()) {
    const role = c.role ?? 'user';
    if (role !== 'user' && role !== 'model') return geminiError('Please use a valid role: user, model.');
    const prev = contents[i - 1];
    if (calls(c).length > 0 && i > 0 && (prev.role ?? 'user') !== 'user')
      return geminiError(
        'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
      );
    if (responses(c).length > 0 && responses(c).length !== calls(prev).length)
      return geminiError(
        'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      );
  }
  const thinking = (get((get(req, 'generationConfig') as Json) ?? {}, 'thinkingConfig') ?? {}) as Json;
  const level = get(thinking, 'thinkingLevel');
  const budget = get(thinking, 'thinkingBudget');
  if (level !== undefined && budget !== undefined)
    return geminiError('You can only set only one of thinking budget and thinking level.');
  if (level !== undefined && !/^gemini-3/.test(model))
    return geminiError('Thinking level is not supported for this model.');
  if (typeof budget === 'number' && budget !== -1) {
    const range = /^gemini-2\.5-pro/.test(model)
      ? [128, 32768]
      : /^gemini-2\.5-flash/.test(model)
        ? [0, 24576]
        : undefined;
    if (range && budget === 0 && range[0] > 0)
      return geminiError('Budget 0 is invalid. This model only works in thinking mode.');
    if (range && (budget < range[0] || budget > range[1]))
      return geminiError(
        `The thinking budget ${budget} is invalid. Please choose a value between ${range[0]} and ${range[1]}.`,
      );
  }
  if (!signatures) return null;
  // The current turn starts after the last user content of its own (not function responses).
  let start = contents.length - 1;
  while (start >= 0 && !((contents[start].role ?? 'user') === 'user' && responses(contents[start]).length === 0))
    start--;
  for (let i = start + 1; i < contents.length; i++) {
    const first = calls(contents[i])[0];
    if (!first) continue;
    const name = (get(first, 'functionCall') as Json).name;
    const sig = get(first, 'thoughtSignature');
    if (sig === undefined)
      return geminiError(
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String(name)}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      );
    if (sig !== SKIP_THOUGHT_SIGNATURE && !isIssuedThoughtSignature(sig, name))
      return geminiError('Corrupted thought signature.');
  }
  return null;
}

function checkGenerate(req: Json, model: string, signatures: boolean, prefix = ''): StrictRefusal | null {
  const contents = get(req, 'contents');
  if (!Array.isArray(contents) || contents.length === 0)
    return geminiError('* GenerateContentRequest.contents: contents is not specified\n');
  const semantic: Semantic = [];
  checkSemantics(req, prefix, semantic);
  if (semantic.length) return geminiError(semantic.join(''));
  return checkConversation(req, model, signatures);
}

export const validateGemini: StrictValidator = (path, _headers, body) => {
  const url = new URL(path, 'http://x');
  const m = /^\/(v1beta|v1|v1alpha)\/models\/([^:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(
    url.pathname,
  );
  if (!m) return null;
  const model = decodeURIComponent(m[2]).split('+')[0].toLowerCase();
  const count = m[3] === 'countTokens';
  const violations: { field: string; description: string }[] = [];
  parse(body, count ? 'CountTokensRequest' : 'GenerateContentRequest', '', violations);
  if (violations.length) return geminiError(violations.map((v) => v.description).join('\n'), violations);
  if (!count) return checkGenerate(body, model, isGeminiThinkingSignatureModel(model));
  const inner = get(body, 'generateContentRequest');
  if (isObject(inner)) {
    if (get(body, 'contents') !== undefined)
      return geminiError('* CountTokensRequest: contents and generate_content_request must not both be set.\n');
    if (typeof inner.model !== 'string')
      return geminiError('* CountTokensRequest.generate_content_request.model: model is required\n');
    return checkGenerate(inner, model, false, 'generate_content_request.');
  }
  return checkGenerate(body, model, false);
};
