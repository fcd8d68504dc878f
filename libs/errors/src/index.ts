export { errorCatalogue, allPkcCodes, codesAddedToTheSpec, isPkcCode, httpStatusOf, type PkcCode } from './catalogue';
export {
  PkcError,
  isPkcError,
  errorEnvelope,
  successEnvelope,
  type ErrorEnvelope,
  type ErrorFields,
  type ErrorFieldValue,
  type SuccessEnvelope,
} from './pkc-error';
export { echoInput, echoedInputLengthMax } from './echo';
export { invalidParametersError, invalidParametersErrorOf, type ParameterIssue } from './invalid-parameters';
export { consoleErrorCatalogue, ConsoleError, isConsoleError, isConsoleCode, type ConsoleCode } from './console-catalogue';
