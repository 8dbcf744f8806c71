import { connect } from 'node:net';

/**
 * Sends `requestLine` as it is over a socket (fetch would refuse to send a bad or absolute-form
 * target) and returns the whole reply. The socket stays open for writing: a server may drop an
 * answer still being made on a half-closed one; `Connection: close` ends it after the reply.
 */
export function rawRequest(port: number, requestLine: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`${requestLine} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

/** The status code and the error code (if the body is an error) of a raw reply. */
export function replyOf(reply: string): { status: number; code: string | undefined } {
  const status = Number(reply.slice('HTTP/1.1 '.length, 'HTTP/1.1 '.length + 3));
  const code = /"code":"([A-Z_]+)"/.exec(reply)?.[1];
  return { status, code };
}
