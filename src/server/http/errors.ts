/** Errors a handler throws to answer the person with a status and a clear message (DESIGN.md 6 shapes). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export type FieldErrors = Record<string, string[]>;

export class ValidationError extends HttpError {
  constructor(
    readonly errors: FieldErrors,
    message?: string,
  ) {
    super(422, message ?? summarise(errors));
  }
}

function summarise(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  if (messages.length === 0) return 'The given data was invalid.';
  const extra = messages.length - 1;
  return extra > 0 ? `${messages[0]} (and ${extra} more error${extra > 1 ? 's' : ''})` : messages[0];
}

export const unauthenticated = () => new HttpError(401, 'Unauthenticated.');
export const forbidden = (message = 'This action is unauthorized.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const fieldError = (field: string, message: string) => new ValidationError({ [field]: [message] });
