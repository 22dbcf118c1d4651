//! One item's attributes against its entity: required ones present, each of the DynamoDB type
//! its model type is written as and within the model's bounds ([`super::value`]'s rules), each
//! failure a [`Finding`]. Pure.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::Attribute;

use super::finding::{Code, Finding};
use super::item::{Subject, shown, type_name};
use super::value::{Problem, over, problem};
use crate::value::template_text;

/// Every attribute finding about `s`.
pub(crate) fn check(s: &Subject<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for attribute in &s.entity.attributes {
        match s.item.get(&attribute.name) {
            None | Some(AttributeValue::Null(_)) if attribute.required => {
                out.push(missing(s, attribute));
            }
            None | Some(AttributeValue::Null(_)) => {}
            Some(value) => match problem(attribute, value) {
                Some(p) => out.push(typed(s, attribute, value, p)),
                None => out.extend(bound(s, attribute, value)),
            },
        }
    }
    out
}

fn missing(s: &Subject<'_>, a: &Attribute) -> Finding {
    let f = s
        .finding(
            Code::MissingAttribute,
            format!("required attribute `{}` is missing", a.name),
        )
        .attribute(&a.name)
        .span(a.span.clone())
        .label("required");
    match &a.default {
        Some(default) => f.help(format!(
            "a migration writes its default `{default}` on items that lack it"
        )),
        None => f.help(format!(
            "write `{}` on the item, or make it optional in the model",
            a.name
        )),
    }
}

fn typed(s: &Subject<'_>, a: &Attribute, value: &AttributeValue, p: Problem) -> Finding {
    let name = &a.name;
    let model_type = a.type_label();
    let (code, what, label) = match &p {
        Problem::WrongType(expected) => (
            Code::WrongType,
            format!(
                "`{name}` is {} {}, the model says {model_type} ({expected})",
                type_name(value),
                shown(value)
            ),
            format!("written as {expected}"),
        ),
        Problem::Float(model) => (
            Code::FloatValue,
            format!(
                "`{name}` is {}: a float where the model says {model}",
                shown(value)
            ),
            (*model).to_string(),
        ),
        Problem::Invalid(why) => (
            Code::InvalidValue,
            format!("`{name}` is {}, {why}", shown(value)),
            model_type.clone(),
        ),
    };
    let mut f = s
        .finding(code, what)
        .attribute(name)
        .found_expected(template_text(value), None)
        .span(a.type_span.clone())
        .label(label);
    if let Problem::Float(_) = p {
        f = f
            .note("the value went through a binary float on its way to the table")
            .help("write exact numbers: an integer type, or a decimal type, never f32/f64");
    }
    f
}

fn bound(s: &Subject<'_>, a: &Attribute, value: &AttributeValue) -> Option<Finding> {
    let (what, label) = over(a, value)?;
    Some(
        s.finding(Code::OverBound, format!("`{}` {what}", a.name))
            .attribute(&a.name)
            .found_expected(template_text(value), None)
            .span(a.span.clone())
            .label(label)
            .help("make the bound in the model match the data, or fix the item"),
    )
}
