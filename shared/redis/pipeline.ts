import type { Redis } from 'ioredis';

export type Pipeline = ReturnType<Redis['pipeline']>;

/** Runs a pipeline and answers its replies in order; throws the first command error (ioredis reports them per command). */
export async function execPipeline(pipeline: Pipeline): Promise<unknown[]> {
  const replies = (await pipeline.exec()) ?? [];
  return replies.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}
