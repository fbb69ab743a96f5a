import { validatedTextType } from './validated-text.js';

/** A phone number: digits, spaces, + - ( ) . # x ext. */
export const phone = validatedTextType('phone', 'Phone', 'phone');
