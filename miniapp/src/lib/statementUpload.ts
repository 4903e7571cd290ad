import { ref } from 'vue';

import { ApiError, upload } from './api.ts';

/**
 * A statement the reader could not read without its currency (amounts in "$", the sign of several
 * currencies): the file, kept in memory until the person picks one of the likely currencies on
 * the Import screen, and the server's question in their language.
 */
export interface CurrencyQuestion {
  file: File;
  message: string;
  currencies: string[];
}

export const currencyQuestion = ref<CurrencyQuestion | null>(null);

/**
 * Sends a statement to `POST /api/import` (with the currency the person chose, when they were
 * asked) and returns its review's id; null when the server asks which currency it is in (the
 * question is then in `currencyQuestion`). Any other refusal is thrown, as `upload` throws it.
 */
export async function sendStatement(file: File, currency?: string): Promise<string | null> {
  const form = new FormData();
  form.append('file', file);
  if (currency !== undefined) form.append('currency', currency);
  try {
    const sent = await upload<{ flowId: string }>('/api/import', form);
    currencyQuestion.value = null;
    return sent.flowId;
  } catch (error) {
    if (error instanceof ApiError && error.currencies.length > 0) {
      currencyQuestion.value = { file, message: error.message, currencies: error.currencies };
      return null;
    }
    throw error;
  }
}
