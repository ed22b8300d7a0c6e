/**
 * The OpenAPI document as the Python client generator reads it, and its schemas written as pydantic v2 models
 * (clients/python/perpdesk/models.py): a JSON Schema becomes a Python type, an object with properties a model class.
 * Every model keeps the fields it does not know (perpdesk._model.Model: extra allowed).
 */

export type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  description?: string;
  additionalProperties?: Schema | boolean;
};

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema; example?: unknown }> }>;
}

export type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const PY_KEYWORDS = new Set(['class', 'global', 'from', 'import', 'def', 'return', 'lambda', 'in', 'is', 'not', 'and', 'or', 'pass']);

/** Attributes of pydantic's BaseModel and of our Model that a field must not shadow, and the names the models' types use. */
const MODEL_ATTRIBUTES = new Set([
  ...['copy', 'dict', 'json', 'schema', 'schema_json', 'construct', 'validate', 'parse_obj', 'parse_raw'],
  ...['parse_file', 'from_orm', 'update_forward_refs', 'from_json', 'to_json', 'unknown_fields'],
  ...['str', 'int', 'float', 'bool', 'Any', 'Dict', 'List', 'Literal', 'Optional', 'Union', 'Field', 'Model'],
]);

export const pyName = (name: string): string => {
  const clean = name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^_+/, '');
  const taken = PY_KEYWORDS.has(clean) || MODEL_ATTRIBUTES.has(clean) || clean.startsWith('model_') || /^\d|^$/.test(clean);
  return taken ? `${clean}_` : clean;
};
export const pascal = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
export const pyString = (text: string): string => JSON.stringify(text);
export const literal = (value: unknown): string =>
  typeof value === 'string' ? pyString(value) : typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value);

/** A schema read from an example: what a route without a schema is typed by. */
export function schemaOfExample(value: unknown): Schema {
  if (value === null) return {};
  if (Array.isArray(value)) return { type: 'array', items: value.length > 0 ? schemaOfExample(value[0]) : {} };
  if (typeof value === 'object')
    return { type: 'object', properties: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, schemaOfExample(v)])) };
  if (typeof value === 'number') return { type: 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  return { type: 'string' };
}

export class ModelWriter {
  private readonly classes: string[] = [];
  private readonly named = new Set<string>();

  constructor(private readonly doc: Document) {}

  text(): string {
    return this.classes.join('\n\n');
  }

  private resolve(ref: string): Schema {
    let node: unknown = this.doc;
    for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Record<string, unknown>)[part];
    return node as Schema;
  }

  /** The Python type of a schema; an object with properties becomes a model named `name`. */
  type(schema: Schema, name: string): string {
    if (schema.$ref) {
      const top = /^#\/components\/schemas\/([^/]+)$/.exec(schema.$ref);
      return top ? top[1]! : this.type(this.resolve(schema.$ref), name);
    }
    if (schema.allOf?.length === 1 && !Object.keys(schema.properties ?? {}).length) return this.type(schema.allOf[0]!, name);
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) {
      const nullable = alternatives.some((s) => s.type === 'null');
      const types = [...new Set(alternatives.filter((s) => s.type !== 'null').map((s, i) => this.type(s, `${name}${i + 1}`)))];
      const inner = types.includes('Any') ? 'Any' : types.length === 1 ? types[0]! : `Union[${types.join(', ')}]`;
      return nullable && inner !== 'Any' ? `Optional[${inner}]` : inner;
    }
    if (schema.const !== undefined) return `Literal[${literal(schema.const)}]`;
    if (schema.enum) return schema.enum.every((v) => typeof v === 'string') ? `Literal[${schema.enum.map(literal).join(', ')}]` : 'Any';
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    const nonNull = types.filter((t) => t !== 'null');
    if (nonNull.length !== 1) {
      const inner = nonNull.length === 0 ? 'Any' : `Union[${nonNull.map((t) => this.type({ ...schema, type: t }, name)).join(', ')}]`;
      return types.includes('null') && inner !== 'Any' ? `Optional[${inner}]` : inner;
    }
    const base = this.single(nonNull[0]!, schema, name);
    return types.includes('null') ? `Optional[${base}]` : base;
  }

  private single(type: string, schema: Schema, name: string): string {
    switch (type) {
      case 'string':
        return 'str';
      case 'number':
        return 'float';
      case 'integer':
        return 'int';
      case 'boolean':
        return 'bool';
      case 'array':
        return `List[${schema.items ? this.type(schema.items, `${name}Item`) : 'Any'}]`;
      case 'object':
        if (schema.properties && Object.keys(schema.properties).length > 0) return this.model(name, schema);
        if (typeof schema.additionalProperties === 'object') return `Dict[str, ${this.type(schema.additionalProperties, `${name}Value`)}]`;
        return 'Dict[str, Any]';
      default:
        return 'Any';
    }
  }

  /** Writes a model for an object schema (once per name); answers its name. */
  model(name: string, schema: Schema, allOptional = false): string {
    if (this.named.has(name)) return name;
    this.named.add(name);
    const required = new Set(allOptional ? [] : (schema.required ?? []));
    const fields = Object.entries(schema.properties ?? {}).map(([prop, sub]) => {
      const type = this.type(sub, name + pascal(prop));
      const attr = pyName(prop);
      const need = required.has(prop);
      const declared = need || type.startsWith('Optional[') || type === 'Any' ? type : `Optional[${type}]`;
      // a JSON name Python cannot use is the field's alias
      const alias = attr === prop ? '' : `alias=${pyString(prop)}`;
      const value = need ? (alias ? ` = Field(${alias})` : '') : alias ? ` = Field(default=None, ${alias})` : ' = None';
      const doc = sub.description ? `\n    """${sub.description.replace(/"""/g, "'''").replace(/\\/g, '\\\\')}"""` : '';
      return `    ${attr}: ${declared}${value}${doc}`;
    });
    const doc = schema.description ? `    """${schema.description.replace(/"""/g, "'''")}"""\n` : '';
    const body = fields.length ? `${doc ? '\n' : ''}${fields.join('\n')}\n` : doc ? '' : '    pass\n';
    this.classes.push(`class ${name}(Model):\n${doc}${body}`);
    return name;
  }
}
