import { expect } from 'chai';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { MultiplexTransport, REQUEST_CANCELLED } from '../../api/mcp/multiplex-transport.js';
import type { ApiRequest } from '../../api/routing/http-types.js';

/** A real SDK Server whose one tool answers when the test lets it: a request in flight for as long as the test wants. */
async function slowServer(deadlineMs: number) {
  const transport = new MultiplexTransport(deadlineMs);
  const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
  const release: (() => void)[] = [];
  const ran: string[] = [];
  const waiting: { count: number; resolve(): void }[] = [];
  /** Resolves once `count` handlers have started. */
  const whenRunning = (count: number) =>
    new Promise<void>((resolve) => (ran.length >= count ? resolve() : waiting.push({ count, resolve })));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    ran.push(request.params.name);
    for (const w of waiting) if (ran.length >= w.count) w.resolve();
    await new Promise<void>((resolve) => release.push(resolve));
    return { content: [{ type: 'text' as const, text: 'done' }] };
  });
  await server.connect(transport);
  return { transport, server, release, ran, whenRunning };
}

const call = (id: string | number): JSONRPCRequest => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'slow', arguments: {} },
});
const cancel = (requestId: string | number) => ({ jsonrpc: '2.0' as const, method: 'notifications/cancelled', params: { requestId } });
const req = () => ({ headers: {} }) as ApiRequest;
const extra = { requestInfo: { headers: {} } };

describe('MCP multiplex transport: no request waits forever, none is another client’s to cancel', () => {
  it('answers a request the Server never answers with a JSON-RPC timeout at its deadline, and forgets it', async () => {
    const { transport, server, release } = await slowServer(50);
    const started = Date.now();
    const answer = await transport.request(call(7), 'key:a', req(), extra);
    expect(Date.now() - started).to.be.within(40, 1_000);
    expect(answer).to.deep.include({ id: 7 });
    expect((answer as { error: { code: number } }).error.code).to.equal(ErrorCode.RequestTimeout);
    expect(transport.inFlight).to.equal(0);
    // the late answer finds nothing to answer
    release.forEach((done) => done());
    await server.close();
  });

  it('lets only the same owner cancel a request by its own id, and answers the cancelled POST at once', async () => {
    const { transport, server, release, ran, whenRunning } = await slowServer(5_000);
    const mine = transport.request(call(1), 'key:a', req(), extra);
    const theirs = transport.request(call(1), 'key:b', req(), extra);
    // a stranger names id 1, and the ids a counter would have given: nothing of key:a's ends
    for (const id of [1, 2, '1']) transport.notify(cancel(id), 'key:b-other', extra);
    expect(transport.inFlight).to.equal(2);
    transport.notify(cancel(1), 'key:a', extra);
    const cancelled = await mine;
    expect((cancelled as { id: number; error: { code: number } }).error.code).to.equal(REQUEST_CANCELLED);
    expect(transport.inFlight).to.equal(1);
    // both handlers are running (the cancelled one too: a cancellation drops the answer, not the work)
    await whenRunning(2);
    release.forEach((done) => done());
    expect(await theirs).to.deep.include({ id: 1, result: { content: [{ type: 'text', text: 'done' }] } });
    expect(ran).to.deep.equal(['slow', 'slow']);
    expect(transport.inFlight).to.equal(0);
    await server.close();
  });
});
