import type { FastifyError, FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { InputLimitError } from '../config/input-limits.js';
import { isDatabaseUnavailable } from '../db/connection-errors.js';
import { HttpError, ValidationError } from './errors.js';
import { fieldErrorsOf } from './parse-body.js';
import { declaredRefusal } from './route-permissions.js';

/** Seconds a caller is asked to wait (Retry-After) when the database does not answer: it is probed every second. */
const DATABASE_RETRY_SECONDS = 5;

/**
 * Every failure leaves as JSON in the shapes of DESIGN.md 6. Fastify's own errors (bad JSON, body too large,
 * wrong content type) become clear 4xx answers; anything unexpected is a 500 that says nothing internal.
 */
export function installErrorHandler(app: FastifyInstance, config: Config) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ValidationError) {
      return reply.status(422).send({ message: error.message, errors: error.errors });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).headers(error.headers).send({ message: error.message });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ reason: error.message }, 'answered 503: the database did not answer');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_SECONDS))
        .send({
          message: `The database is not answering just now (it may be restarting), so this could not be done. Try again in ${DATABASE_RETRY_SECONDS} seconds.`,
        });
    }
    const status = error.statusCode ?? 500;
    if (error.validation) {
      // Someone the route's declaration refuses hears so, whatever their input (the handler would have said it).
      const refusal = declaredRefusal(app, request);
      if (refusal) return reply.status(refusal.statusCode).send({ message: refusal.message });
      const invalid = new ValidationError(fieldErrorsOf(error.validation, error.validationContext));
      return reply.status(422).send({ message: invalid.message, errors: invalid.errors });
    }
    if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Over an input limit, as every other: 422 naming it (docs/settings.md "Input limits").
      // A route may take less than the app's limit (a public form's submission): the message names the route's.
      const bodyBytes = request.routeOptions.bodyLimit ?? config.limits.bodyBytes;
      const tooLarge = new InputLimitError('bodyBytes', { ...config.limits, bodyBytes }, { field: 'body' });
      return reply.status(422).send({ message: tooLarge.message, errors: tooLarge.errors });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ message: 'Send the request as JSON (Content-Type: application/json).' });
    }
    if (
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      return reply
        .status(400)
        .send({ message: 'The request body is not valid JSON. Check its syntax and send it again.' });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: error.message });
    }
    // A multipart body its parser cannot read (no boundary, cut short, a part never ended): the sender's upload is broken.
    if (request.isMultipart() && /multipart|boundary|terminated early|content-type/i.test(error.message)) {
      return reply.status(400).send({
        message: `The upload could not be read (${error.message}). Send the file again as multipart/form-data.`,
      });
    }
    // PostgreSQL refused a value the request carried (an id beyond integer range, a NUL character, year 0) or a
    // reference to a row that does not exist: the caller's input, so a 422, never a 500.
    const sqlState = (error as { code?: unknown }).code;
    if (typeof sqlState === 'string' && /^22[0-9A-Z]{3}$/.test(sqlState)) {
      const message = `The request holds a value that cannot be used: ${error.message}.`;
      return reply.status(422).send({ message, errors: { body: [message] } });
    }
    if (sqlState === '23503') {
      const missing = /Key \(([^)]+)\)=\(([^)]*)\) is not present in table "([^"]+)"/.exec(
        (error as { detail?: string }).detail ?? '',
      );
      const field = missing?.[1] ?? 'body';
      const message = missing
        ? `No record in ${missing[3].replace(/_/g, ' ')} has the id ${missing[2]}.`
        : 'The change refers to a record that does not exist, or removes one other records still refer to.';
      return reply.status(422).send({ message, errors: { [field]: [message] } });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Server Error', request_id: request.id });
  });

  // Unknown paths: see registerStaticClient (the client's pages, else a JSON 404).
}
