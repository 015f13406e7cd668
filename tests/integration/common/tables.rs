//! One way to create a test table: its keys, its GSIs and its stream, as data. The tests used
//! to spell the SDK's CreateTable builder out each time (nine copies), and a copy that forgot
//! an attribute definition failed only at run time.

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ScalarAttributeType, StreamSpecification, StreamViewType,
};
use aws_sdk_dynamodb::Client;

/// A key attribute: its name and type.
pub type Key<'a> = (&'a str, ScalarAttributeType);

/// The string key attribute `name`.
pub fn s(name: &str) -> Key<'_> {
    (name, ScalarAttributeType::S)
}

/// The number key attribute `name`.
pub fn n(name: &str) -> Key<'_> {
    (name, ScalarAttributeType::N)
}

struct Gsi<'a> {
    name: &'a str,
    pk: Key<'a>,
    sk: Option<Key<'a>>,
    projection: ProjectionType,
}

/// An on-demand table to create: `TableSpec::new(name, s("PK")).range(s("SK")).create(&c)`.
pub struct TableSpec<'a> {
    name: &'a str,
    pk: Key<'a>,
    sk: Option<Key<'a>>,
    gsis: Vec<Gsi<'a>>,
    stream: Option<StreamViewType>,
}

impl<'a> TableSpec<'a> {
    pub fn new(name: &'a str, pk: Key<'a>) -> Self {
        TableSpec {
            name,
            pk,
            sk: None,
            gsis: Vec::new(),
            stream: None,
        }
    }

    /// The usual single-table shape: string `PK` and `SK`.
    pub fn pk_sk(name: &'a str) -> Self {
        TableSpec::new(name, s("PK")).range(s("SK"))
    }

    pub fn range(mut self, sk: Key<'a>) -> Self {
        self.sk = Some(sk);
        self
    }

    pub fn gsi(
        mut self,
        name: &'a str,
        pk: Key<'a>,
        sk: Option<Key<'a>>,
        projection: ProjectionType,
    ) -> Self {
        self.gsis.push(Gsi {
            name,
            pk,
            sk,
            projection,
        });
        self
    }

    /// Turns the table's stream on with `view`, or leaves it off with `None`.
    pub fn stream(mut self, view: Option<StreamViewType>) -> Self {
        self.stream = view;
        self
    }

    /// Each key attribute once, as DynamoDB requires, in the order first named.
    fn definitions(&self) -> Vec<AttributeDefinition> {
        let mut keys: Vec<&Key> = vec![&self.pk];
        keys.extend(&self.sk);
        for g in &self.gsis {
            keys.push(&g.pk);
            keys.extend(&g.sk);
        }
        let mut seen: Vec<&str> = Vec::new();
        keys.into_iter()
            .filter(|(name, _)| {
                let new = !seen.contains(name);
                seen.push(name);
                new
            })
            .map(|(name, ty)| {
                AttributeDefinition::builder()
                    .attribute_name(*name)
                    .attribute_type(ty.clone())
                    .build()
                    .unwrap()
            })
            .collect()
    }

    pub async fn create(self, client: &Client) {
        let mut create = client
            .create_table()
            .table_name(self.name)
            .billing_mode(BillingMode::PayPerRequest)
            .set_attribute_definitions(Some(self.definitions()))
            .set_key_schema(Some(schema(&self.pk, self.sk.as_ref())));
        for g in &self.gsis {
            create = create.global_secondary_indexes(
                GlobalSecondaryIndex::builder()
                    .index_name(g.name)
                    .set_key_schema(Some(schema(&g.pk, g.sk.as_ref())))
                    .projection(
                        Projection::builder()
                            .projection_type(g.projection.clone())
                            .build(),
                    )
                    .build()
                    .unwrap(),
            );
        }
        if let Some(view) = self.stream {
            create = create.stream_specification(
                StreamSpecification::builder()
                    .stream_enabled(true)
                    .stream_view_type(view)
                    .build()
                    .unwrap(),
            );
        }
        if let Err(e) = create.send().await {
            panic!("create table {}: {e:?}", self.name);
        }
    }
}

fn schema(pk: &Key, sk: Option<&Key>) -> Vec<KeySchemaElement> {
    let element = |name: &str, kt| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kt)
            .build()
            .unwrap()
    };
    let mut out = vec![element(pk.0, KeyType::Hash)];
    out.extend(sk.map(|sk| element(sk.0, KeyType::Range)));
    out
}
