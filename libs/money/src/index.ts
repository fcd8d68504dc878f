export { currencies, isCurrency, minorUnitsPerMajor, type Currency } from './currency';
export {
  parseAmount,
  toApiAmount,
  minorFromDatabase,
  formatMinor,
  amountMinorMax,
  type MinorUnits,
  type AmountParseResult,
  type AmountParseFailure,
} from './amount';
export { parseAmountText, writtenNumber, isWrittenNumber, type WrittenNumber } from './amount-text';
export { parseMinorUnitsText, minorUnitsText, parseMajorUnitsText, majorUnitsText, type MajorUnitsOptions } from './units-text';
