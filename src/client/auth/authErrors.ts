import { ApiError } from '../http/errors';

/** The message shown for a failed sign-in: wrong credentials, throttled, or the client error kinds. */
export function loginErrorMessage(error: unknown, translate: (key: string, options?: any) => string): string {
  if (error instanceof ApiError) {
    if (error.status === 429) {
      if (error.message && !/^Too many attempts\.?/.test(error.message)) return error.message;
      return translate('app.auth.throttled', { seconds: error.retryAfter ?? 60 });
    }
    if (error.status === 422)
      return (
        error.body?.errors?.email ??
        error.body?.errors?.password ??
        error.message ??
        translate('app.auth.wrong_credentials')
      );
    return error.message;
  }
  return error instanceof Error ? error.message : translate('app.auth.wrong_credentials');
}

export function fieldErrors(error: unknown): Record<string, string> {
  return error instanceof ApiError && error.status === 422 ? { ...(error.body?.errors ?? {}) } : {};
}
