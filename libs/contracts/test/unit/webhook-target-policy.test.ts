import { addressProblem, classifyAddress, urlProblem } from '../../src/webhook-target-policy';

describe('address classification', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['100.64.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:0a00:0001::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['not-an-ip', 'invalid'],
  ])('when %s is classified, then it is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  const production = { requireHttps: true, allowPrivateTargets: false };
  const sandbox = { requireHttps: false, allowPrivateTargets: true };

  test('when production checks addresses, then only public ones pass; the sandbox lets local receivers through', () => {
    expect(addressProblem('10.0.0.1', production)).toBe('target refused: private address');
    expect(addressProblem('::1', production)).toBe('target refused: loopback address');
    expect(addressProblem('169.254.169.254', production)).toBe('target refused: link-local address');
    expect(addressProblem('8.8.8.8', production)).toBeUndefined();
    expect(addressProblem('127.0.0.1', sandbox)).toBeUndefined();
  });

  test('when production checks a URL, then it must be https without credentials', () => {
    expect(urlProblem('http://example.com/hook', production)).toBe('target refused: https required');
    expect(urlProblem('https://user:pw@example.com/hook', production)).toBe('target refused: credentials in the URL');
    expect(urlProblem('ftp://example.com/hook', production)).toBe('target refused: only http(s) URLs');
    expect(urlProblem('https://example.com/hook', production)).toBeUndefined();
    expect(urlProblem('http://127.0.0.1:9/hook', sandbox)).toBeUndefined();
  });
});
