import { validatedTextType } from './validated-text.js';

/** A web address (http:// or https://). */
export const link = validatedTextType('link', 'Link', 'url');
