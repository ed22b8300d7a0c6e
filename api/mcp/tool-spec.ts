/**
 * What an MCP tool is: a name, a description written for a model, and the REST route(s) it answers
 * through, named by path. The route brings its Joi schema (the tool's input schema is generated from
 * it), its key requirement and its handler; a tool adds only what the original's tool names
 * differently (rename), a rule derived from the route's (adapt) or a filter on the answer.
 */
import type Joi from 'joi';

/** A filter the tool applies to its route's answer, with its own arguments (a symbol over a list of rows). */
export interface AnswerFilter {
  schema: Joi.ObjectSchema;
  apply(data: unknown, args: Record<string, unknown>): unknown;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** The GET route the tool reads, full path (bot routes under /api/bot/v1: the original's bodies). */
  read?: string;
  /**
   * The POST route the tool writes. With `read` too, the tool writes when an argument only the POST body
   * knows is present (paper_fees with set, paper_realism with a switch, paper_replay with act or symbol) and reads otherwise.
   */
  write?: string;
  /** Tool argument name -> route field name, where the original's tool spells a field differently. */
  rename?: Record<string, string>;
  /** A stricter schema derived from the route's own (paper_limit_order: type limit, limit_price required). */
  adapt?: (schema: Joi.ObjectSchema) => Joi.ObjectSchema;
  filter?: AnswerFilter;
}
