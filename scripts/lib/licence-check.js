'use strict';
/**
 * Judges the licences of a CycloneDX SBOM's components against a policy (scripts/licence-policy.json):
 * every component must carry only allowed SPDX licences (an expression's every id allowed: "A OR B"
 * passes when one side does, "A AND B" when both do), be one of our own workspaces, or be listed as
 * reviewed by name and version. Pure: it takes the parsed SBOM and policy and answers the problems.
 */

/** Every component, nested ones included, as name@version with its licence ids or expressions. */
function componentsOf(sbom) {
  const found = [];
  const walk = (components) => {
    for (const component of components ?? []) {
      const name = component.group ? `${component.group}/${component.name}` : component.name;
      const licences = (component.licenses ?? []).map((entry) => entry.expression ?? entry.license?.id ?? entry.license?.name ?? '').filter((text) => text !== '');
      found.push({ name, version: component.version ?? '', licences });
      walk(component.components);
    }
  };
  walk(sbom.components);
  return found;
}

/** Whether an SPDX expression is satisfied by the allowed ids (parentheses, OR, AND; WITH exceptions are refused). */
function expressionAllowed(expression, allowed) {
  const text = expression.trim();
  if (text.startsWith('(') && matchingParenthesis(text, 0) === text.length - 1) return expressionAllowed(text.slice(1, -1), allowed);
  for (const operator of [' OR ', ' AND ']) {
    const parts = splitTopLevel(text, operator);
    if (parts.length > 1) {
      const verdicts = parts.map((part) => expressionAllowed(part, allowed));
      return operator === ' OR ' ? verdicts.some(Boolean) : verdicts.every(Boolean);
    }
  }
  return allowed.has(text);
}

function matchingParenthesis(text, open) {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    if (text[index] === '(') depth += 1;
    if (text[index] === ')') depth -= 1;
    if (depth === 0) return index;
  }
  return -1;
}

function splitTopLevel(text, operator) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '(') depth += 1;
    if (text[index] === ')') depth -= 1;
    if (depth === 0 && text.startsWith(operator, index)) {
      parts.push(text.slice(start, index));
      start = index + operator.length;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The components the policy refuses, each with why; empty when every licence is acceptable. */
function licenceProblems(sbom, policy) {
  const allowed = new Set(policy.allowed);
  const problems = [];
  for (const component of componentsOf(sbom)) {
    if (policy.ourOwn.some((prefix) => component.name.startsWith(prefix))) continue;
    if (Object.hasOwn(policy.reviewed, `${component.name}@${component.version}`)) continue;
    if (component.licences.length === 0) {
      problems.push(`${component.name}@${component.version}: no licence in the SBOM (read its LICENSE file and list it under "reviewed")`);
    } else if (!component.licences.every((licence) => expressionAllowed(licence, allowed))) {
      problems.push(`${component.name}@${component.version}: ${component.licences.join(', ')} is not on the allow-list`);
    }
  }
  return problems;
}

module.exports = { componentsOf, expressionAllowed, licenceProblems };
