//! The SAM resources of the model's stream consumers: per consumer a function
//! (`<Name>Consumer`) with a `DynamoDB` event on the table's stream whose `FilterCriteria` let
//! through only its entities' records ([`Consumer::lambda_filters`]), its own least-privilege
//! role ([`consumer_statements`]), and the SQS queue or SNS topic its failed batches go to.

use monotable_model::{
    Consumer, ENTITY_TYPE_ATTRIBUTE, FailureDestination, FilterValue, LambdaFilter, Model,
    StreamView,
};

use crate::cloudformation::TABLE_RESOURCE;
use crate::iam::{PolicyResource, consumer_statements};
use crate::json::{Json, Object, get_att, reference, sub};
use crate::sam_options::{FunctionOptions, SamOptions};

/// The stem of a consumer's resources: `productSales` gives `ProductSales`.
fn stem(consumer: &Consumer) -> String {
    let mut chars = consumer.name.chars().filter(char::is_ascii_alphanumeric);
    match chars.next() {
        Some(first) => std::iter::once(first.to_ascii_uppercase())
            .chain(chars)
            .collect(),
        None => "Stream".to_string(),
    }
}

/// Logical ID of a consumer's function: `ProductSalesConsumer`.
pub fn consumer_logical_id(consumer: &Consumer) -> String {
    format!("{}Consumer", stem(consumer))
}

/// Logical ID of a consumer's role.
fn role_id(consumer: &Consumer) -> String {
    format!("{}ConsumerRole", stem(consumer))
}

/// Logical ID of a consumer's failure queue or topic.
fn destination_id(consumer: &Consumer) -> String {
    format!("{}ConsumerFailures", stem(consumer))
}

/// A filter value as a record's image holds it: `{"S": ["CANCELLED"]}`.
fn typed_values(values: &[FilterValue]) -> serde_json::Value {
    let mut by_type = serde_json::Map::new();
    for v in values {
        let json = match v {
            FilterValue::String(s) | FilterValue::Number(s) => serde_json::Value::from(s.as_str()),
            FilterValue::Bool(b) => serde_json::Value::from(*b),
        };
        let list = by_type
            .entry(v.dynamo_type())
            .or_insert_with(|| serde_json::Value::Array(Vec::new()));
        if let serde_json::Value::Array(items) = list {
            items.push(json);
        }
    }
    serde_json::Value::Object(by_type)
}

/// The `Pattern` string of one filter.
pub fn filter_pattern(filter: &LambdaFilter) -> String {
    let events: Vec<&str> = filter.events.iter().map(|e| e.as_str()).collect();
    let mut pattern = serde_json::Map::new();
    pattern.insert("eventName".into(), events.into());
    if let Some(image) = filter.image {
        let mut fields = serde_json::Map::new();
        fields.insert(
            ENTITY_TYPE_ATTRIBUTE.into(),
            serde_json::json!({ "S": filter.entities }),
        );
        for (attribute, values) in &filter.attributes {
            fields.insert(attribute.clone(), typed_values(values));
        }
        pattern.insert(
            "dynamodb".into(),
            serde_json::json!({ image.as_str(): fields }),
        );
    }
    serde_json::Value::Object(pattern).to_string()
}

fn event(model: &Model, consumer: &Consumer, view: StreamView) -> Json {
    let filters: Vec<Json> = consumer
        .lambda_filters(model, view)
        .iter()
        .map(|f| Object::new().with("Pattern", filter_pattern(f)).into())
        .collect();
    let mut properties = Object::new()
        .with("Stream", get_att(TABLE_RESOURCE, "StreamArn"))
        .with("StartingPosition", consumer.starting_position.as_str())
        .with("BatchSize", u64::from(consumer.batch_size))
        .with("MaximumRetryAttempts", i64::from(consumer.retries))
        .with("BisectBatchOnFunctionError", consumer.bisect_on_error)
        .with("FunctionResponseTypes", vec!["ReportBatchItemFailures"])
        .with("FilterCriteria", Object::new().with("Filters", filters));
    if let Some(destination) = consumer.on_failure {
        properties.insert(
            "DestinationConfig",
            Object::new().with(
                "OnFailure",
                Object::new().with("Destination", destination_arn(consumer, destination)),
            ),
        );
    }
    Object::new()
        .with("Type", "DynamoDB")
        .with("Properties", properties)
        .into()
}

/// The ARN of the failure destination: a queue's `Arn` attribute, a topic's `Ref`.
fn destination_arn(consumer: &Consumer, destination: FailureDestination) -> Json {
    match destination {
        FailureDestination::Queue => get_att(&destination_id(consumer), "Arn"),
        FailureDestination::Topic => reference(&destination_id(consumer)),
    }
}

fn role(model: &Model, consumer: &Consumer) -> Json {
    let statements: Vec<Json> = consumer_statements(model, consumer)
        .into_iter()
        .map(|statement| {
            let resource = match &statement.resource {
                PolicyResource::Stream => get_att(TABLE_RESOURCE, "StreamArn"),
                PolicyResource::Streams => sub(&format!("${{{TABLE_RESOURCE}.Arn}}/stream/*")),
                PolicyResource::FailureDestination(d) => destination_arn(consumer, *d),
                PolicyResource::Index(name) => crate::cloudformation::index_arn(name),
                // `PolicyResource` is non-exhaustive: anything else is the table.
                _ => get_att(TABLE_RESOURCE, "Arn"),
            };
            Object::new()
                .with("Effect", "Allow")
                .with("Action", statement.actions)
                .with("Resource", resource)
                .into()
        })
        .collect();
    let assume = Object::new().with("Version", "2012-10-17").with(
        "Statement",
        vec![Json::from(
            Object::new()
                .with("Effect", "Allow")
                .with(
                    "Principal",
                    Object::new().with("Service", "lambda.amazonaws.com"),
                )
                .with("Action", "sts:AssumeRole"),
        )],
    );
    Object::new()
        .with("Type", "AWS::IAM::Role")
        .with(
            "Properties",
            Object::new()
                .with("AssumeRolePolicyDocument", assume)
                .with(
                    "ManagedPolicyArns",
                    vec![sub(
                        "arn:${AWS::Partition}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
                    )],
                )
                .with(
                    "Policies",
                    vec![Json::from(
                        Object::new()
                            .with("PolicyName", "StreamConsumer")
                            .with(
                                "PolicyDocument",
                                Object::new()
                                    .with("Version", "2012-10-17")
                                    .with("Statement", statements),
                            ),
                    )],
                ),
        )
        .into()
}

fn destination(destination: FailureDestination) -> Json {
    match destination {
        FailureDestination::Queue => Object::new().with("Type", "AWS::SQS::Queue").with(
            "Properties",
            Object::new()
                .with("MessageRetentionPeriod", 1_209_600u64)
                .with("SqsManagedSseEnabled", true),
        ),
        FailureDestination::Topic => Object::new().with("Type", "AWS::SNS::Topic"),
    }
    .into()
}

fn function(model: &Model, consumer: &Consumer, view: StreamView, options: &SamOptions) -> Json {
    let defaults = FunctionOptions::new("App");
    let app = options.function.as_ref().unwrap_or(&defaults);
    let what = consumer
        .description
        .as_deref()
        .map_or_else(String::new, |d| format!(": {d}"));
    Object::new()
        .with("Type", "AWS::Serverless::Function")
        .with(
            "Properties",
            Object::new()
                .with(
                    "Description",
                    crate::cloudformation::description(format!(
                        "Stream consumer {}{what}",
                        consumer.name
                    )),
                )
                .with("CodeUri", options.code_uri.as_str())
                .with("Handler", app.handler.as_str())
                .with("Runtime", "provided.al2023")
                .with("Architectures", vec![app.architecture.name()])
                .with("MemorySize", options.memory_size)
                .with("Timeout", options.timeout)
                .with("Role", get_att(&role_id(consumer), "Arn"))
                .with(
                    "Environment",
                    Object::new().with(
                        "Variables",
                        Object::new()
                            .with(options.table_env_var.as_str(), reference(TABLE_RESOURCE))
                            .with(CONSUMER_ENV, consumer.name.as_str()),
                    ),
                )
                .with(
                    "Events",
                    Object::new().with("Stream", event(model, consumer, view)),
                ),
        )
        .into()
}

/// The environment variable naming the consumer a function runs.
pub const CONSUMER_ENV: &str = "MONOTABLE_CONSUMER";

/// Adds every consumer's function, role and failure destination to `resources`, and their
/// outputs; nothing when the table has no stream.
pub(crate) fn add(
    model: &Model,
    options: &SamOptions,
    resources: &mut Object,
    outputs: &mut Object,
) {
    let Some(view) = model.table.stream else {
        return;
    };
    for consumer in &model.consumers {
        let id = consumer_logical_id(consumer);
        resources.insert(id.as_str(), function(model, consumer, view, options));
        resources.insert(role_id(consumer), role(model, consumer));
        outputs.insert(
            format!("{id}Arn"),
            Object::new()
                .with(
                    "Description",
                    format!("ARN of the function of stream consumer {}.", consumer.name),
                )
                .with("Value", get_att(&id, "Arn")),
        );
        if let Some(d) = consumer.on_failure {
            let failures = destination_id(consumer);
            resources.insert(failures.as_str(), destination(d));
            outputs.insert(
                failures.as_str(),
                Object::new()
                    .with(
                        "Description",
                        format!(
                            "Where {}'s failed batches go ({}).",
                            consumer.name,
                            match d {
                                FailureDestination::Queue => "SQS queue URL",
                                FailureDestination::Topic => "SNS topic ARN",
                            }
                        ),
                    )
                    .with("Value", reference(&failures)),
            );
        }
    }
}
