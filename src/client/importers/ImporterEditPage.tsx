export { ImporterEdit as default } from './ImporterScreens';
