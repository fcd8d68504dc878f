import net from 'node:net';
import { freePorts, portRangeForThisProcess } from '../lib/ports';

describe('free ports for the processes a script starts', () => {
  test('when chosen, then they lie below the kernel’s ephemeral range, so no outgoing connection or listen(0) can take one before the child binds it', () => {
    expect(portRangeForThisProcess(32768, '')).toEqual({ low: 10000, high: 32768 });
    expect(portRangeForThisProcess(49152, '')).toEqual({ low: 10000, high: 49152 });
  });

  test('when test workers choose, then each has a slice of its own', () => {
    const slices = ['1', '2', '3', '4'].map((id) => portRangeForThisProcess(32768, id));
    for (const [index, slice] of slices.entries()) {
      expect(slice.high).toBeLessThanOrEqual(32768);
      const next = slices[index + 1];
      if (next) expect(slice.high).toBeLessThanOrEqual(next.low);
    }
    expect(portRangeForThisProcess(32768, '5')).toEqual(slices[0]);
  });

  test('when several are asked for, then they are distinct, in this process’s range, and free to bind', async () => {
    const ports = await freePorts(5);
    const { low, high } = portRangeForThisProcess();
    expect(new Set(ports).size).toBe(5);
    for (const port of ports) {
      expect(port >= low && port < high).toBe(true);
      const server = net.createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
