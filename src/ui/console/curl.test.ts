import { describe, expect, it } from 'vitest';
import { curlForNodeHost, toCurl } from './curl.js';

describe('toCurl', () => {
  it('writes method, URL, headers and body, quoting single quotes for POSIX shells', () => {
    expect(
      toCurl(
        { method: 'PATCH', path: '/api/v1/namespaces/default/configmaps/x?fieldManager=me', requestHeaders: [['content-type', 'application/apply-patch+yaml']], requestBody: "data:\n  k: it's\n" },
        'http://h/clusters/default',
      ),
    ).toBe(
      "curl -X PATCH 'http://h/clusters/default/api/v1/namespaces/default/configmaps/x?fieldManager=me' -H 'content-type: application/apply-patch+yaml' --data-binary 'data:\n  k: it'\\''s\n'",
    );
    expect(toCurl({ method: 'GET', path: '/api', requestHeaders: [] }, 'http://h')).toBe("curl -X GET 'http://h/api'");
  });
});

describe('curlForNodeHost', () => {
  it('targets the Node host, leaves out browser-only headers, and says why', () => {
    const { command, note } = curlForNodeHost({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      requestHeaders: [
        ['content-type', 'application/json'],
        ['idempotency-key', 'k-1'],
        ['impersonate-user', 'jane'],
      ],
      requestBody: '{}',
    });
    expect(command).toBe(
      "curl -X POST 'http://127.0.0.1:8080/api/v1/namespaces/default/configmaps' -H 'content-type: application/json' -H 'impersonate-user: jane' --data-binary '{}'",
    );
    expect(note).toContain('npm run serve');
    expect(note).toContain('separate cluster');
  });
});
