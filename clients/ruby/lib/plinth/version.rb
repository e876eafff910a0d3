# frozen_string_literal: true

module Plinth
  VERSION = "0.1.0"
end
