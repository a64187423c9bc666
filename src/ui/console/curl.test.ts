import { describe, expect, it } from 'vitest';
import { toCurl } from './curl.js';

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
