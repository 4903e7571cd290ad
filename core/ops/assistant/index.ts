import { getAssistantSettings } from './getAssistantSettings.ts';
import { updateAssistantSettings } from './updateAssistantSettings.ts';

/** The built-in assistant's settings: which model answers for the household, and at what price. */
export const assistantOps = [getAssistantSettings, updateAssistantSettings] as const;
