import { validatedTextType } from './validated-text.js';

/** An e-mail address. */
export const email = validatedTextType('email', 'Email', 'email');
