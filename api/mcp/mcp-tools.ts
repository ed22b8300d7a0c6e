/**
 * The tool table resolved against the route catalog: each tool finds its route(s) by path, and its
 * input schema is generated from the route's Joi schema (renamed where the original's tool names a
 * field differently). A tool whose route is not in the catalog is listed as unavailable and answers
 * tool_unavailable, until a route of that path joins the catalog.
 */
import Joi from 'joi';
import type { JsonSchema } from '../../shared/core/json-schema.js';
import { toJsonSchema, type JoiDescription } from '../openapi/joi-to-json-schema.js';
import type { BoundRoute, RouteCatalog } from '../routing/route-catalog.js';
import type { ToolSpec } from './tool-spec.js';

/** One route of a tool, with the schema its input is validated by. */
export interface ToolRoute {
  bound: BoundRoute;
  schema: Joi.ObjectSchema;
}

export interface ResolvedTool {
  spec: ToolSpec;
  read?: ToolRoute;
  write?: ToolRoute;
  /** Fields only the POST body knows: one of them present makes a read-and-write tool write. */
  writeOnly: ReadonlySet<string>;
  /** The arguments of the tool's answer filter, taken out before the route validates the rest. */
  filterFields: readonly string[];
  keyed: boolean;
}

/** A tool as tools/list shows it. */
export interface ToolListing {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, JsonSchema>; required?: string[] };
}

export type ToolEntry = { available: true; tool: ResolvedTool } | { available: false; spec: ToolSpec };

const EMPTY = Joi.object({});
const UNAVAILABLE_NOTE = 'Not on this server yet: calling it answers tool_unavailable. ';

/** JSON Schema without the document's own extensions (x-error-codes): strict validators refuse unknown keywords. */
function withoutExtensions(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [name, value] of Object.entries(schema)) {
    if (name.startsWith('x-')) continue;
    if (name === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, withoutExtensions(v)]));
    } else if (name === 'items' && value && typeof value === 'object') {
      out.items = withoutExtensions(value as JsonSchema);
    } else {
      out[name] = value;
    }
  }
  return out;
}

const described = (schema: Joi.ObjectSchema): JsonSchema => withoutExtensions(toJsonSchema(schema.describe() as JoiDescription));
const fieldsOf = (schema: Joi.ObjectSchema): string[] => Object.keys((schema.describe() as JoiDescription).keys ?? {});

export class McpTools {
  private resolved: Map<string, ToolEntry> | undefined;
  private listing: ToolListing[] | undefined;

  constructor(
    private readonly catalog: RouteCatalog,
    private readonly specs: readonly ToolSpec[],
  ) {}

  /** The catalog is complete once the app is built; tools are resolved on first use. */
  private table(): Map<string, ToolEntry> {
    this.resolved ??= new Map(this.specs.map((spec) => [spec.name, this.resolve(spec)]));
    return this.resolved;
  }

  private route(method: 'get' | 'post', path: string | undefined, spec: ToolSpec): ToolRoute | null | undefined {
    if (path === undefined) return undefined;
    const bound = this.catalog.find(method.toUpperCase(), path);
    if (!bound) return null;
    const own = (method === 'get' ? bound.route.query : bound.route.body) ?? EMPTY;
    return { bound, schema: spec.adapt ? spec.adapt(own) : own };
  }

  private resolve(spec: ToolSpec): ToolEntry {
    const read = this.route('get', spec.read, spec);
    const write = this.route('post', spec.write, spec);
    if (read === null || write === null) return { available: false, spec };
    const readFields = new Set(read ? fieldsOf(read.schema) : []);
    const writeOnly = new Set(write ? fieldsOf(write.schema).filter((name) => !readFields.has(name)) : []);
    const keyed = Boolean(read?.bound.route.keyed || write?.bound.route.keyed);
    const filterFields = spec.filter ? fieldsOf(spec.filter.schema) : [];
    return { available: true, tool: { spec, read, write, writeOnly, keyed, filterFields } };
  }

  find(name: string): ToolEntry | undefined {
    return this.table().get(name);
  }

  /** tools/list: every tool, its description and its input schema (built once). */
  list(): ToolListing[] {
    this.listing ??= [...this.table().values()].map((entry) => (entry.available ? listingOf(entry.tool) : unavailableListing(entry.spec)));
    return this.listing;
  }
}

function unavailableListing(spec: ToolSpec): ToolListing {
  return { name: spec.name, description: UNAVAILABLE_NOTE + spec.description, inputSchema: { type: 'object' } };
}

function listingOf(tool: ResolvedTool): ToolListing {
  const { spec, read, write } = tool;
  const toolName = new Map(Object.entries(spec.rename ?? {}).map(([arg, field]) => [field, arg]));
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  for (const route of [read, write]) {
    if (!route) continue;
    const schema = described(route.schema);
    for (const [field, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      properties[toolName.get(field) ?? field] = property;
    }
    // a tool that both reads and writes requires what the route it picks requires, not what the other does
    if (!(read && write)) for (const field of (schema.required ?? []) as string[]) required.add(toolName.get(field) ?? field);
  }
  if (spec.filter) Object.assign(properties, described(spec.filter.schema).properties);
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: { type: 'object', properties, ...(required.size > 0 ? { required: [...required] } : {}) },
  };
}
