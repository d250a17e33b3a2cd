import { describe, expect, it } from 'vitest';
import { declaresNoParameters, geminiSchemaOf, jsonSchemaOfGemini, MAX_REF_DEPTH } from './schema.ts';

describe('jsonSchemaOfGemini: Gemini OpenAPI-style Schema -> JSON Schema', () => {
  it('lowercases types, turns nullable into a null type, int64 strings into numbers, example into examples', () => {
    expect(
      jsonSchemaOfGemini({
        type: 'OBJECT',
        description: 'Search',
        propertyOrdering: ['q', 'limit'],
        properties: {
          q: { type: 'STRING', description: 'query', minLength: '1', example: 'cats' },
          limit: { type: 'INTEGER', format: 'int32', nullable: true, maximum: 50 },
          tags: { type: 'ARRAY', items: { type: 'STRING', format: 'enum', enum: ['a', 'b'] }, maxItems: '3' },
          size: { type: 'INTEGER', format: 'enum', enum: ['1', '2'] },
          when: { type: 'STRING', format: 'date-time' },
        },
        required: ['q'],
      }),
    ).toEqual({
      type: 'object',
      description: 'Search',
      properties: {
        q: { type: 'string', description: 'query', minLength: 1, examples: ['cats'] },
        limit: { type: ['integer', 'null'], maximum: 50 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 3 },
        size: { type: 'integer', enum: [1, 2] },
        when: { type: 'string', format: 'date-time' },
      },
      required: ['q'],
    });
  });

  it('a nullable anyOf gets a null branch; a nullable enum a null value; JSON Schema is left as it is', () => {
    expect(jsonSchemaOfGemini({ anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true })).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }],
    });
    expect(jsonSchemaOfGemini({ type: 'STRING', enum: ['x'], nullable: true })).toEqual({
      type: ['string', 'null'],
      enum: ['x', null],
    });
    const json = { type: 'object', properties: { u: { type: 'string', format: 'uri' } }, additionalProperties: false };
    expect(jsonSchemaOfGemini(json)).toEqual(json);
  });
});

describe("geminiSchemaOf: JSON Schema -> Gemini's Schema subset", () => {
  it('cleans a Claude Code tool: format uri, $schema, additionalProperties, defaults go; required and descriptions stay', () => {
    expect(
      geminiSchemaOf({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        properties: {
          url: { type: 'string', format: 'uri', description: 'The URL to fetch' },
          prompt: { type: 'string', description: 'What to extract', default: 'all' },
          when: { type: 'string', format: 'date-time' },
          mode: { const: 'fast', description: 'Only fast' },
        },
        required: ['url', 'prompt'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The URL to fetch' },
        prompt: { type: 'string', description: 'What to extract' },
        when: { type: 'string', format: 'date-time' },
        mode: { type: 'string', enum: ['fast'], description: 'Only fast' },
      },
      required: ['url', 'prompt'],
    });
  });

  it('type arrays and null branches become nullable; several types anyOf; oneOf anyOf; enums strings', () => {
    expect(
      geminiSchemaOf({
        type: 'object',
        properties: {
          a: { type: ['string', 'null'], description: 'A' },
          b: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }], description: 'B' },
          c: { type: ['string', 'number'] },
          d: { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
          e: { type: 'integer', enum: [1, 2, null] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string', nullable: true, description: 'A' },
        b: { type: 'integer', minimum: 0, nullable: true, description: 'B' },
        c: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        d: { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
        e: { type: 'integer', enum: ['1', '2'], nullable: true },
      },
    });
  });

  it('inlines $ref from $defs (bounded for recursive ones) and merges allOf', () => {
    const out = geminiSchemaOf({
      type: 'object',
      $defs: {
        Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
        Node: { type: 'object', description: 'A tree node', properties: { child: { $ref: '#/$defs/Node' } } },
      },
      properties: {
        at: { $ref: '#/$defs/Point', description: 'Where' },
        tree: { $ref: '#/$defs/Node' },
        both: { allOf: [{ $ref: '#/$defs/Point' }, { properties: { y: { type: 'number' } }, required: ['y'] }] },
      },
    });
    expect(out.properties).toMatchObject({
      at: { type: 'object', description: 'Where', properties: { x: { type: 'number' } }, required: ['x'] },
      both: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
    });
    expect(JSON.stringify(out)).not.toMatch(/\$ref|\$defs/);
    let node = (out.properties as Record<string, Record<string, unknown>>).tree;
    let depth = 0;
    while ((node.properties as Record<string, Record<string, unknown>> | undefined)?.child) {
      node = (node.properties as Record<string, Record<string, unknown>>).child;
      depth++;
    }
    expect(depth).toBe(MAX_REF_DEPTH);
    expect(node).toEqual({ type: 'object', description: 'A tree node' });
  });

  it('an object without properties loses the empty map; a tool with none declares no parameters', () => {
    const out = geminiSchemaOf({ type: 'object', properties: { meta: { type: 'object', properties: {} } } });
    expect(out).toEqual({ type: 'object', properties: { meta: { type: 'object' } } });
    expect(declaresNoParameters(geminiSchemaOf({ type: 'object', properties: {}, required: [] }))).toBe(true);
    expect(declaresNoParameters(out)).toBe(false);
  });

  it('a required name with no property is left out (Gemini refuses it); the others stay', () => {
    expect(geminiSchemaOf({ type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'ghost'] })).toEqual(
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
    );
  });
});
