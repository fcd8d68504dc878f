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
export {
  fieldProblems,
  invalidFieldsName,
  invalidFieldsListedMax,
  expectedForms,
  describeInvalidField,
  invalidFieldsError,
  errorFieldsOf,
  invalidFieldError,
  invalidCursorError,
  invalidFieldsNestedUnder,
  invalidFieldsOf,
  invalidFieldsErrorOf,
  invalidFieldsOfError,
  isInvalidFieldList,
  alternatives,
  type FieldProblem,
  type InvalidField,
  type FieldIssue,
  type FieldIssueContext,
} from './invalid-fields';
export { invalidParametersErrorOf, type ParameterIssue } from './invalid-parameters';
export { consoleErrorCatalogue, ConsoleError, isConsoleError, isConsoleCode, type ConsoleCode } from './console-catalogue';
