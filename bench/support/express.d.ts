// The part of Express 5's API the peer server uses (@types/express is not installed).
declare module 'express' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';
  interface Request extends IncomingMessage {
    params: Record<string, string>;
  }
  interface Response extends ServerResponse {
    json(body: unknown): Response;
  }
  type Handler = (req: Request, res: Response) => void;
  interface Application {
    get(path: string, handler: Handler): Application;
    post(path: string, handler: Handler): Application;
    put(path: string, handler: Handler): Application;
    patch(path: string, handler: Handler): Application;
    delete(path: string, handler: Handler): Application;
    options(path: string, handler: Handler): Application;
    listen(port: number, host: string, callback: () => void): Server;
  }
  function express(): Application;
  export default express;
}
