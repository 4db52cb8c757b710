export * from './constants.ts';
export * from './dates.ts';
export * from './forms.ts';
export * from './messages.ts';
export * from './navigation.ts';
export * from './permissions.ts';
export * from './status.ts';
