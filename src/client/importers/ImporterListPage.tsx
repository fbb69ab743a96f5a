export { ImporterList as default } from './ImporterScreens';
