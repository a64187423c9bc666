import { describe, expect, it } from 'vitest';
import * as U from './url.js';

// Expected values were produced by Go's net/url: ParseRequestURI (err), then url.Parse (perr) with
// Scheme, Host, Hostname(), Port(), EscapedPath(), Query() and String().
type Row = {
  err?: string;
  perr?: string;
  scheme?: string;
  host?: string;
  hostname?: string;
  port?: string;
  path?: string;
  query?: Record<string, string[]>;
  string?: string;
};
const goRows: [string, Row][] = [
  ["https://user:pass@example.com:80/path?query=val#fragment", {"host":"example.com:80","hostname":"example.com","path":"/path","port":"80","query":{"query":["val"]},"scheme":"https","string":"https://user:pass@example.com:80/path?query=val#fragment"}],
  ["/absolute-path", {"host":"","hostname":"","path":"/absolute-path","port":"","query":{},"scheme":"","string":"/absolute-path"}],
  ["https://a:b:c/", {"err":"parse \"https://a:b:c/\": invalid port \":c\" after host"}],
  ["../relative-path", {"err":"parse \"../relative-path\": invalid URI for request"}],
  ["", {"err":"parse \"\": empty url"}],
  ["*", {"host":"","hostname":"","path":"*","port":"","query":{},"scheme":"","string":"*"}],
  ["https://example.com/", {"host":"example.com","hostname":"example.com","path":"/","port":"","query":{},"scheme":"https","string":"https://example.com/"}],
  ["https://example.com:80/", {"host":"example.com:80","hostname":"example.com","path":"/","port":"80","query":{},"scheme":"https","string":"https://example.com:80/"}],
  ["https://[::1]:80/", {"host":"[::1]:80","hostname":"::1","path":"/","port":"80","query":{},"scheme":"https","string":"https://[::1]:80/"}],
  ["https://[::1]/", {"host":"[::1]","hostname":"::1","path":"/","port":"","query":{},"scheme":"https","string":"https://[::1]/"}],
  ["/path", {"host":"","hostname":"","path":"/path","port":"","query":{},"scheme":"","string":"/path"}],
  ["https://127.0.0.1:80/", {"host":"127.0.0.1:80","hostname":"127.0.0.1","path":"/","port":"80","query":{},"scheme":"https","string":"https://127.0.0.1:80/"}],
  ["https://example.com/path with spaces/", {"host":"example.com","hostname":"example.com","path":"/path%20with%20spaces/","port":"","query":{},"scheme":"https","string":"https://example.com/path%20with%20spaces/"}],
  ["https://example.com", {"host":"example.com","hostname":"example.com","path":"","port":"","query":{},"scheme":"https","string":"https://example.com"}],
  ["https://example.com/path?k1=a&k2=b&k2=c", {"host":"example.com","hostname":"example.com","path":"/path","port":"","query":{"k1":["a"],"k2":["b","c"]},"scheme":"https","string":"https://example.com/path?k1=a&k2=b&k2=c"}],
  ["https://example.com/path?key with spaces=value with spaces", {"host":"example.com","hostname":"example.com","path":"/path","port":"","query":{"key with spaces":["value with spaces"]},"scheme":"https","string":"https://example.com/path?key with spaces=value with spaces"}],
  ["https://example.com/path?", {"host":"example.com","hostname":"example.com","path":"/path","port":"","query":{},"scheme":"https","string":"https://example.com/path?"}],
  ["https://example.com/path", {"host":"example.com","hostname":"example.com","path":"/path","port":"","query":{},"scheme":"https","string":"https://example.com/path"}],
  ["http://x/a%20b", {"host":"x","hostname":"x","path":"/a%20b","port":"","query":{},"scheme":"http","string":"http://x/a%20b"}],
  ["http://x/a%2Fb", {"host":"x","hostname":"x","path":"/a%2Fb","port":"","query":{},"scheme":"http","string":"http://x/a%2Fb"}],
  ["http://x/a%zzb", {"err":"parse \"http://x/a%zzb\": invalid URL escape \"%zz\""}],
  ["http://x/%", {"err":"parse \"http://x/%\": invalid URL escape \"%\""}],
  ["mailto:someone@example.com", {"host":"","hostname":"","path":"","port":"","query":{},"scheme":"mailto","string":"mailto:someone@example.com"}],
  ["http:opaque", {"host":"","hostname":"","path":"","port":"","query":{},"scheme":"http","string":"http:opaque"}],
  ["HTTP://EXAMPLE.com/A", {"host":"EXAMPLE.com","hostname":"EXAMPLE.com","path":"/A","port":"","query":{},"scheme":"http","string":"http://EXAMPLE.com/A"}],
  ["http://[::1", {"err":"parse \"http://[::1\": missing ']' in host"}],
  ["http://[fe80::1%25eth0]:8080/", {"host":"[fe80::1%eth0]:8080","hostname":"fe80::1%eth0","path":"/","port":"8080","query":{},"scheme":"http","string":"http://[fe80::1%25eth0]:8080/"}],
  ["http://[fe80::1%eth0]/", {"err":"parse \"http://[fe80::1%eth0]/\": invalid URL escape \"%et\""}],
  ["http://ex ample.com/", {"err":"parse \"http://ex ample.com/\": invalid character \" \" in host name"}],
  ["http://example.com:/", {"host":"example.com:","hostname":"example.com","path":"/","port":"","query":{},"scheme":"http","string":"http://example.com:/"}],
  ["http://example.com:8x/", {"err":"parse \"http://example.com:8x/\": invalid port \":8x\" after host"}],
  ["http://us er@host/", {"err":"parse \"http://us er@host/\": net/url: invalid userinfo"}],
  ["http://user@host@other/", {"host":"other","hostname":"other","path":"/","port":"","query":{},"scheme":"http","string":"http://user%40host@other/"}],
  ["http://host/?a=1;b=2&c=3", {"host":"host","hostname":"host","path":"/","port":"","query":{"c":["3"]},"scheme":"http","string":"http://host/?a=1;b=2&c=3"}],
  ["http://host/?a=%zz&b=2", {"host":"host","hostname":"host","path":"/","port":"","query":{"b":["2"]},"scheme":"http","string":"http://host/?a=%zz&b=2"}],
  ["http://host/?=x&a&b=", {"host":"host","hostname":"host","path":"/","port":"","query":{"":["x"],"a":[""],"b":[""]},"scheme":"http","string":"http://host/?=x&a&b="}],
  ["http://host/#%zz", {"err":"parse \"http://host/#%zz\": invalid URL escape \"%zz\""}],
  ["http://host/p#frag%20x", {"host":"host","hostname":"host","path":"/p","port":"","query":{},"scheme":"http","string":"http://host/p#frag%20x"}],
  ["//host/path", {"host":"host","hostname":"host","path":"/path","port":"","query":{},"scheme":"","string":"//host/path"}],
  ["///path", {"host":"","hostname":"","path":"///path","port":"","query":{},"scheme":"","string":"///path"}],
  ["http://host/a?b#c?d", {"host":"host","hostname":"host","path":"/a","port":"","query":{"b":[""]},"scheme":"http","string":"http://host/a?b#c?d"}],
  ["http://héllo.com/ünï?q=é", {"host":"héllo.com","hostname":"héllo.com","path":"/%C3%BCn%C3%AF","port":"","query":{"q":["é"]},"scheme":"http","string":"http://h%C3%A9llo.com/%C3%BCn%C3%AF?q=é"}],
  ["http://host/\u0007", {"err":"parse \"http://host/\\a\": net/url: invalid control character in URL"}],
  ["1http://x", {"err":"parse \"1http://x\": invalid URI for request"}],
  ["http://host/p%41th", {"host":"host","hostname":"host","path":"/p%41th","port":"","query":{},"scheme":"http","string":"http://host/p%41th"}],
  ["http:/onlypath", {"host":"","hostname":"","path":"/onlypath","port":"","query":{},"scheme":"http","string":"http:/onlypath"}],
  ["a:b", {"host":"","hostname":"","path":"","port":"","query":{},"scheme":"a","string":"a:b"}],
  ["/a:b", {"host":"","hostname":"","path":"/a:b","port":"","query":{},"scheme":"","string":"/a:b"}],
  ["http://h/%2e%2E/", {"host":"h","hostname":"h","path":"/%2e%2E/","port":"","query":{},"scheme":"http","string":"http://h/%2e%2E/"}],
  ["http://[::1]:namedport", {"err":"parse \"http://[::1]:namedport\": invalid port \":namedport\" after host"}],
  ["http://x?y", {"host":"x","hostname":"x","path":"","port":"","query":{"y":[""]},"scheme":"http","string":"http://x?y"}],
  ["http://x/?q=a+b%2Bc", {"host":"x","hostname":"x","path":"/","port":"","query":{"q":["a b+c"]},"scheme":"http","string":"http://x/?q=a+b%2Bc"}],
  ["ftp://ftp.example.com/file.txt;type=i", {"host":"ftp.example.com","hostname":"ftp.example.com","path":"/file.txt;type=i","port":"","query":{},"scheme":"ftp","string":"ftp://ftp.example.com/file.txt;type=i"}],
  ["http://a/b/c/./../g", {"host":"a","hostname":"a","path":"/b/c/./../g","port":"","query":{},"scheme":"http","string":"http://a/b/c/./../g"}],
];

describe('net/url against Go', () => {
  it.each(goRows)('%j', (s, want) => {
    if (want.err !== undefined) {
      expect(() => U.parseRequestURI(s)).toThrow(want.err);
      expect(U.isURL(s)).toBe(false);
      expect(U.requestURIError(s)).toBe(want.err);
      expect(() => U.parseURL(s)).toThrow(`URL parse error during conversion from string: ${want.err}`);
      return;
    }
    expect(U.isURL(s)).toBe(true);
    if (want.perr !== undefined) {
      expect(() => U.parseURL(s)).toThrow(`URL parse error during conversion from string: ${want.perr}`);
      return;
    }
    const u = U.parseURL(s);
    expect(U.getScheme(u)).toBe(want.scheme);
    expect(U.getHost(u)).toBe(want.host);
    expect(U.getHostname(u)).toBe(want.hostname);
    expect(U.getPort(u)).toBe(want.port);
    expect(U.getEscapedPath(u)).toBe(want.path);
    expect(Object.fromEntries(U.getQuery(u))).toEqual(want.query ?? {});
    expect(U.urlToString(u)).toBe(want.string);
  });
});

describe('Kubernetes URL library documentation examples', () => {
  it('accessors', () => {
    expect(U.getScheme(U.parseURL('/path'))).toBe('');
    expect(U.getHost(U.parseURL('https://[::1]:80/'))).toBe('[::1]:80');
    expect(U.getHostname(U.parseURL('https://[::1]:80/'))).toBe('::1');
    expect(U.getEscapedPath(U.parseURL('https://example.com/path with spaces/'))).toBe('/path%20with%20spaces/');
    expect(Object.fromEntries(U.getQuery(U.parseURL('https://example.com/path?k1=a&k2=b&k2=c')))).toEqual({ k1: ['a'], k2: ['b', 'c'] });
    expect(U.urlEquals(U.parseURL('https://example.com/a'), U.parseURL('HTTPS://example.com/a'))).toBe(true);
  });
  it('errors', () => {
    expect(() => U.parseURL('../relative-path')).toThrow(
      'URL parse error during conversion from string: parse "../relative-path": invalid URI for request',
    );
    expect(U.isURL('https://a:b:c/')).toBe(false);
  });
});
