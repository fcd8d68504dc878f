import http from 'node:http';

/** The status of a GET, or 0 when nothing answers within a second (the process is still starting). */
export function probeHttp(url: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(url, { timeout: 1_000, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
  });
}
