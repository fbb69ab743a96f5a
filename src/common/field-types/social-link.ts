import { validatedTextType } from './validated-text.js';

/** A link to a profile on a social network (the screens name the network). */
export const socialLink = validatedTextType('social-link', 'Social link', 'url');
