// Status errors the patch handler answers with (apiserver handlers/patch.go, v1.33).

import { StatusError, type Status } from '../errors.js';

/**
 * errors.NewGenericServerResponse(422, "", GroupResource{}, "", msg, 0, false): the real server hides the
 * patch library's text behind a fixed message. The text is kept on the error (`detail`) for logs and UIs;
 * it is not part of the response body.
 */
export function unprocessablePatch(detail: string): StatusError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    details: {},
    code: 422,
  };
  return Object.assign(new StatusError(status), { detail });
}

/** A plain Go error reaching the responder: 500 with the error text and no reason (StatusReasonUnknown). */
export function unknownServerError(message: string): StatusError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 };
  return new StatusError(status);
}
