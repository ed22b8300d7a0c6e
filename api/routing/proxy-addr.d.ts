// proxy-addr (Express's own dependency, used for req.ip) ships no types: the one call we make.
declare module 'proxy-addr' {
  import type { IncomingMessage } from 'node:http';

  /** The client's address: the socket's, or the nearest untrusted one in X-Forwarded-For. */
  function proxyAddr(req: IncomingMessage, trust: (address: string, hop: number) => boolean): string;
  export default proxyAddr;
}
