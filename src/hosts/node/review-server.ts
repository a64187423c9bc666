// Test support: a local HTTPS server that answers admission.k8s.io/v1 AdmissionReviews, with the certificate
// of ./fixtures (its caBundle given to webhook configurations). The tests decide each answer, and when it is
// sent: `onReview` gets the review, the request's path and `respond`, which sends the response's fields (the
// review's uid added) whenever it is called.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export type Review = { request: Record<string, any> };

const fixtures = join(import.meta.dirname, 'fixtures');
const cert = readFileSync(join(fixtures, 'test-tls.crt'), 'utf8');
const key = readFileSync(join(fixtures, 'test-tls.key'), 'utf8');
/** The server certificate as a webhook configuration's clientConfig.caBundle. */
export const reviewCaBundle = Buffer.from(cert).toString('base64');

export interface ReviewServer {
  /** https://127.0.0.1:PORT */
  base: string;
  close(): Promise<void>;
}

export async function startReviewServer(
  onReview: (review: Review, path: string, respond: (response: Record<string, unknown>) => void) => void,
): Promise<ReviewServer> {
  const server = createServer({ cert, key }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body) as Review;
      onReview(review, req.url ?? '', (response) => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...response } }));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
