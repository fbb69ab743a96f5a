export { ImporterCreate as default } from './ImporterScreens';
