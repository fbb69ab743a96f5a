export { ImporterShow as default } from './ImporterScreens';
