import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError, ValidationError } from './errors.js';

/**
 * Every failure leaves as JSON in the shapes of DESIGN.md 6. Fastify's own errors (bad JSON, body too large,
 * wrong content type) become clear 4xx answers; anything unexpected is a 500 that says nothing internal.
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ValidationError) {
      return reply.status(422).send({ message: error.message, errors: error.errors });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).headers(error.headers).send({ message: error.message });
    }
    const status = error.statusCode ?? 500;
    if (error.validation) {
      const errors: Record<string, string[]> = {};
      for (const item of error.validation) {
        const field = (item.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || String(item.params?.missingProperty ?? 'body');
        (errors[field] ??= []).push(item.message ?? 'is invalid');
      }
      return reply.status(422).send({ message: 'The given data was invalid.', errors });
    }
    if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ message: 'The request is too large. Send less data, or upload the file in smaller parts.' });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ message: 'Send the request as JSON (Content-Type: application/json).' });
    }
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return reply.status(400).send({ message: 'The request body is not valid JSON. Check its syntax and send it again.' });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Server Error', request_id: request.id });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ message: `No route for ${request.method} ${request.url.split('?')[0]}.` });
  });
}
