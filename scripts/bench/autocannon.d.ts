// The part of autocannon (8.x, which ships no types) the benchmarks use.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    /** A request autocannon is about to send; setupRequest returns it changed, or a falsy value to restart the sequence. */
    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }
    /** Per-connection state shared by the steps of one sequence. */
    type RequestContext = Record<string, unknown>;
    interface Request extends RequestParams {
      setupRequest?: (request: RequestParams, context: RequestContext) => RequestParams | null | false | undefined;
      onResponse?: (status: number, body: string, context: RequestContext, headers: Record<string, string>) => void;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      pipelining?: number;
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      requests?: Request[];
    }
    interface Result {
      duration: number;
      non2xx: number;
      errors: number;
      timeouts: number;
    }
    interface Instance extends EventEmitter {
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
      on(event: 'reqError', listener: (error: Error) => void): this;
    }
  }

  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;
  export = autocannon;
}
